import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../common/package-info.js";
import { LANGUAGE_NAMES, LANGUAGES, languagePath } from "../../project/index.js";
import { RUNTIME_VERSION } from "../../protocol/index.js";
import { CHANGES_DOC, parseChanges } from "./changes.js";
import { inferVersion, planUpgrade } from "./plan.js";
import { parseRecord, recordOf, runtimeHash } from "./record.js";
import { currentRuntime, hashesOf, knownVersions } from "./runtime.js";

const buf = (text: string) => Buffer.from(text);
const hashes = (files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([p, t]) => [p, runtimeHash(t)]));

describe("the runtime's versions", () => {
  for (const language of LANGUAGE_NAMES) {
    test(`${language}: the templates' runtime is the one recorded as version ${RUNTIME_VERSION}`, async () => {
      assert.deepEqual(
        recordOf(RUNTIME_VERSION, await currentRuntime(language)).files,
        hashesOf(RUNTIME_VERSION, language),
        "a runtime file changed without a new version: bump RUNTIME_VERSION in src/protocol/runtime.ts, add its section to docs/runtime-changes.md, then `npm run build && node scripts/runtime-hashes.mjs`",
      );
    });
  }

  test("every version from 1 has every language's hashes and a section in docs/runtime-changes.md", () => {
    const versions = Array.from({ length: RUNTIME_VERSION }, (_, i) => i + 1);
    assert.deepEqual(knownVersions(), versions);
    for (const v of versions)
      for (const language of LANGUAGE_NAMES)
        assert.ok(Object.keys(hashesOf(v, language) ?? {}).length > 0, `${language} ${v}`);
    const sections = parseChanges(readFileSync(CHANGES_DOC, "utf8"));
    assert.deepEqual(
      sections.map((s) => s.version),
      versions,
    );
    for (const s of sections) assert.ok(s.text.length > 40, `version ${s.version} says what changed`);
  });

  for (const language of LANGUAGE_NAMES) {
    test(`${language}: the fixture project test/fixtures/runtime-v1 carries runtime version 1`, async () => {
      const project = join(PACKAGE_ROOT, "test", "fixtures", "runtime-v1", language);
      const runtimeDir = join(project, languagePath(LANGUAGES[language].runtimeDir, "legacy_python"));
      const v1 = hashesOf(1, language)!;
      const files = new Map(Object.keys(v1).map((p) => [p, readFileSync(join(runtimeDir, p))]));
      assert.deepEqual(recordOf(1, files).files, v1);
    });
  }
});

describe("planUpgrade", () => {
  const base = hashes({
    "same.ts": "same\n",
    "old.ts": "old\n",
    "dropped.ts": "dropped\n",
    "edited.ts": "edited\n",
    "edited-dropped.ts": "x\n",
  });
  const current = new Map(
    Object.entries({ "same.ts": "same\n", "old.ts": "new\n", "edited.ts": "edited v2\n", "added.ts": "added\n" }).map(
      ([p, t]) => [p, buf(t)],
    ),
  );

  test("replaces what the author left alone, refuses what they changed, adds, removes, keeps", () => {
    const project = new Map(
      Object.entries({
        "same.ts": "same\n",
        "old.ts": "old\r\n",
        "dropped.ts": "dropped\n",
        "edited.ts": "mine\n",
        "edited-dropped.ts": "mine\n",
        "own.ts": "the author's\n",
      }).map(([p, t]) => [p, buf(t)]),
    );
    const plan = planUpgrade(project, base, current);
    assert.deepEqual(
      plan.map((f) => [f.path, f.action]),
      [
        ["added.ts", "add"],
        ["dropped.ts", "remove"],
        ["edited-dropped.ts", "keep"],
        ["edited.ts", "conflict"],
        ["old.ts", "update"],
      ],
    );
    assert.equal(plan.find((f) => f.path === "edited.ts")!.after!.toString(), "edited v2\n");
    assert.equal(plan.find((f) => f.path === "edited.ts")!.before!.toString(), "mine\n");
  });

  test("a file the author deleted comes back; a file already like the new one is left alone", () => {
    const project = new Map([["edited.ts", buf("edited v2\n")]]);
    assert.deepEqual(
      planUpgrade(project, base, current).map((f) => [f.path, f.action]),
      [
        ["added.ts", "add"],
        ["old.ts", "add"],
        ["same.ts", "add"],
      ],
    );
  });
});

describe("inferVersion", () => {
  const v1 = hashes({ "a.ts": "a1", "b.ts": "b", "c.ts": "c1" });
  const v2 = hashes({ "a.ts": "a2", "b.ts": "b", "c.ts": "c2" });
  const project = (files: Record<string, string>) => new Map(Object.entries(files).map(([p, t]) => [p, buf(t)]));
  test("the version most files match, the newest on a tie, none when nothing matches", () => {
    assert.equal(
      inferVersion(project({ "a.ts": "a1", "b.ts": "b", "c.ts": "mine" }), [
        [1, v1],
        [2, v2],
      ]),
      1,
    );
    assert.equal(
      inferVersion(project({ "a.ts": "a2", "b.ts": "b", "c.ts": "c2" }), [
        [1, v1],
        [2, v2],
      ]),
      2,
    );
    assert.equal(
      inferVersion(project({ "b.ts": "b" }), [
        [1, v1],
        [2, v2],
      ]),
      2,
    );
    assert.equal(
      inferVersion(project({ "a.ts": "mine" }), [
        [1, v1],
        [2, v2],
      ]),
      undefined,
    );
  });
});

describe("parseRecord", () => {
  const hash = "a".repeat(64);
  test("reads a record the scaffold writes", () => {
    assert.deepEqual(parseRecord(JSON.stringify({ version: 2, files: { "host.ts": hash, "sub/x.go": hash } })), {
      version: 2,
      files: { "host.ts": hash, "sub/x.go": hash },
    });
  });
  test("says what is wrong with a record it cannot use", () => {
    const cases: [string, RegExp][] = [
      ["{", /is not JSON/],
      ["[]", /not a JSON object/],
      [JSON.stringify({ version: 1.5, files: {} }), /no version/],
      [JSON.stringify({ version: 0, files: {} }), /no version/],
      [JSON.stringify({ version: 2 }), /no files object/],
      [JSON.stringify({ version: 2, files: { "../../etc/passwd": hash } }), /not a file of the runtime folder/],
      [JSON.stringify({ version: 2, files: { "/etc/passwd": hash } }), /not a file of the runtime folder/],
      [JSON.stringify({ version: 2, files: { "a\\..\\b": hash } }), /not a file of the runtime folder/],
      [JSON.stringify({ version: 2, files: { "./x.ts": hash } }), /not a file of the runtime folder/],
      [JSON.stringify({ version: 2, files: { "x.ts": "abc" } }), /not a sha256/],
    ];
    for (const [text, message] of cases) {
      const parsed = parseRecord(text);
      assert.equal(typeof parsed, "string", text);
      assert.match(parsed as string, message, text);
    }
  });
});
