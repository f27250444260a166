/**
 * `executa upgrade` from the packed package, on a project made with runtime version 1 (the fixture
 * test/fixtures/runtime-v1/<lang>, scaffolded by this repository at commit 6591a21): --check, --dry-run
 * and a refusal write nothing; the upgrade leaves the project passing its own tests, the manifest
 * check and `executa test`; --force keeps the author's copy as .orig.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { RUNTIME_VERSION } from "../../src/protocol/index.js";
import { REPO_ROOT, exists, run, tempDir, toolchain } from "./toolchain.js";
import { requires, type ToolName } from "../support/requires.js";

const LANGS = {
  ts: {
    needs: [],
    runtime: "src/executa",
    host: "host.ts",
    tests: [
      ["npx", ["tsc", "-p", "tsconfig.json"]],
      [process.execPath, ["--test", "dist/test/"]],
    ],
  },
  python: {
    needs: ["python3", "pytest"],
    runtime: "legacy_python/executa",
    host: "host.py",
    tests: [["python3", ["-m", "pytest", "-q"]]],
  },
  go: {
    needs: ["go"],
    runtime: "internal/executa",
    host: "host.go",
    tests: [
      ["gofmt", ["-l", "."]],
      ["go", ["vet", "./..."]],
      ["go", ["test", "./..."]],
    ],
  },
} as const satisfies Record<string, { needs: readonly ToolName[]; [fact: string]: unknown }>;

const templateRuntime = {
  ts: "templates/ts/src/executa",
  python: "templates/python/__pyModule__/executa",
  go: "templates/go/internal/executa",
} as const;

/** Every file of a project (node_modules and build output aside), path -> sha256. */
function tree(dir: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (["node_modules", "dist", "__pycache__", ".pytest_cache"].includes(e.name)) continue;
    if (e.isDirectory()) Object.assign(out, tree(dir, path));
    else
      out[path] = createHash("sha256")
        .update(readFileSync(join(dir, path)))
        .digest("hex");
  }
  return out;
}

function legacyProject(lang: keyof typeof LANGS, label: string): string {
  const dir = join(tempDir(`upgrade-${lang}-${label}`), `legacy-${lang}`);
  cpSync(join(REPO_ROOT, "test", "fixtures", "runtime-v1", lang), dir, { recursive: true });
  if (lang === "ts") symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir"); // typescript and @types/node, its devDependencies
  return dir;
}

const upgrade = (args: string[], cwd: string) =>
  toolchain("executa", ["upgrade", ...args], { cwd, timeoutMs: 300_000 });
const json = (stdout: string) => {
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1, `one JSON object on stdout:\n${stdout}`);
  return JSON.parse(lines[0]!) as Record<string, unknown> & {
    files: { path: string; action: string; orig?: string; diff?: string }[];
  };
};

/**
 * The edits docs/runtime-changes.md asks of TypeScript tests that fake the host: a
 * Partial<HostClient> and the new SampleResult fields in a fake result (version 2), and a
 * `progress` in a hand-built ToolContext (version 3).
 */
function migrateTsTests(dir: string): void {
  const path = join(dir, "test", "tools.test.ts");
  const before = readFileSync(path, "utf8");
  const after = before
    .replace(/const host: HostClient = (\{[\s\S]*?\n {2}\});/, "const host = $1 as Partial<HostClient> as HostClient;")
    .replaceAll(
      /text: ("[^"]*") \}, model: ("[^"]*") \}/g,
      "text: $1 }, model: $2, text: $1, structuredValid: false, downgraded: false }",
    )
    .replace(/\n( +)log: \(\) => \{\},/, "\n$1progress: () => {},\n$1log: () => {},");
  assert.notEqual(after, before, "the fixture's tests have the fakes the version 2 notes describe");
  writeFileSync(path, after);
}

for (const lang of ["ts", "python", "go"] as const) {
  const facts = LANGS[lang];
  describe(`executa upgrade: ${lang} project of runtime version 1`, requires(...facts.needs), () => {
    test("--check exits 1, --dry-run lists the changes; neither writes anything", () => {
      const dir = legacyProject(lang, "check");
      const before = tree(dir);
      const check = upgrade(["--check", "--json"], dir);
      assert.equal(check.status, 1, check.output);
      assert.deepEqual(
        [json(check.stdout).status, json(check.stdout).outcome, json(check.stdout).from, json(check.stdout).to],
        ["failed", "outdated", 1, RUNTIME_VERSION],
      );
      const dry = upgrade(["--dry-run", "--json", "--diff"], dir);
      assert.equal(dry.status, 0, dry.output);
      const planned = json(dry.stdout);
      assert.equal(planned.outcome, "dry-run");
      assert.equal(planned.versionFrom, "files", "a version 1 project has no record: its files tell the version");
      assert.ok(
        planned.files.some((f) => f.action === "update" && f.path === `${facts.runtime}/${facts.host}`),
        dry.stdout,
      );
      assert.ok(
        planned.files.some((f) => f.action === "add"),
        dry.stdout,
      );
      assert.ok(
        planned.files.every((f) => f.diff?.startsWith(`--- a/${f.path}\n`)),
        "--diff gives every file's diff",
      );
      assert.deepEqual(tree(dir), before);
    });

    test("upgrades: the runtime is the toolchain's, the record written; own tests, manifest --check and executa test pass", () => {
      const dir = legacyProject(lang, "run");
      const up = upgrade([], dir);
      assert.equal(up.status, 0, up.output);
      assert.match(up.stdout, new RegExp(`from runtime version 1 to ${RUNTIME_VERSION}`));
      assert.match(
        up.stdout,
        /What changed in the runtime[\s\S]*Version 2[\s\S]*\*\*Action\.\*\*/,
        "prints the contract's changes",
      );
      for (const file of readdirSync(join(REPO_ROOT, templateRuntime[lang]))) {
        if (file === "__pycache__") continue;
        assert.deepEqual(
          readFileSync(join(dir, facts.runtime, file)),
          readFileSync(join(REPO_ROOT, templateRuntime[lang], file)),
          file,
        );
      }
      const record = JSON.parse(readFileSync(join(dir, facts.runtime, "runtime.lock.json"), "utf8"));
      assert.equal(record.version, RUNTIME_VERSION);
      const again = upgrade(["--check"], dir);
      assert.equal(again.status, 0, again.output);
      assert.match(again.stdout, /up to date/);

      if (lang === "ts") {
        const compiled = run("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"], { cwd: dir });
        assert.notEqual(
          compiled.status,
          0,
          "version 1's fake host and context do not type-check against the current version (docs/runtime-changes.md)",
        );
        const errors = compiled.stdout.split("\n").filter((l) => / error TS/.test(l));
        assert.ok(
          errors.length > 0 && errors.every((l) => l.startsWith("test/tools.test.ts(")),
          `only the tests' fakes, never the tools:\n${compiled.stdout}`,
        );
        migrateTsTests(dir);
      }
      for (const [command, args] of facts.tests) {
        const r = run(command, [...args], { cwd: dir, timeoutMs: 300_000 });
        assert.equal(r.status, 0, r.output);
        if (command === "gofmt") assert.equal(r.stdout, "", "gofmt -l lists no file");
      }
      const manifest = toolchain("executa", ["manifest", "--check"], { cwd: dir });
      assert.equal(manifest.status, 0, manifest.output);
      const conformance = toolchain("executa", ["test"], { cwd: dir, timeoutMs: 300_000 });
      assert.equal(conformance.status, 0, conformance.output);
      assert.match(conformance.stdout, / 0 failed/);
    });

    test("a runtime file the author changed is refused byte-identical, and with --force kept as .orig", () => {
      const dir = legacyProject(lang, "modified");
      const host = join(dir, facts.runtime, facts.host);
      appendFileSync(host, lang === "python" ? "\n# my local patch\n" : "\n// my local patch\n");
      const mine = readFileSync(host);
      const before = tree(dir);
      const refused = upgrade(["--json"], dir);
      assert.equal(refused.status, 1, refused.output);
      const result = json(refused.stdout);
      assert.equal(result.outcome, "refused");
      const conflict = result.files.find((f) => f.action === "conflict")!;
      assert.equal(conflict.path, `${facts.runtime}/${facts.host}`);
      assert.match(conflict.diff!, /^-.*my local patch$/m, "the diff shows the author's change going");
      assert.deepEqual(tree(dir), before, "nothing was written");
      const human = upgrade([], dir);
      assert.equal(human.status, 1);
      assert.match(human.stdout, /Refused:.*Nothing was written[\s\S]*--force/);

      const forced = upgrade(["--force"], dir);
      assert.equal(forced.status, 0, forced.output);
      assert.deepEqual(readFileSync(`${host}.orig`), mine);
      assert.deepEqual(readFileSync(host), readFileSync(join(REPO_ROOT, templateRuntime[lang], facts.host)));
      const second = upgrade(["--force"], dir);
      assert.equal(second.status, 0, "already upgraded: nothing to do, the .orig left alone");
      assert.deepEqual(readFileSync(`${host}.orig`), mine);
    });
  });
}

describe("executa upgrade: what it refuses to work on", () => {
  test("a new project is up to date; a folder with no vendored runtime, a broken or newer record, are clear errors that write nothing", () => {
    const root = tempDir("upgrade-refusals");
    const created = toolchain("create-executa", [
      join(root, "fresh"),
      "--lang",
      "go",
      "--yes",
      "--no-git",
      "--no-install",
    ]);
    assert.equal(created.status, 0, created.output);
    const fresh = upgrade(["--check"], join(root, "fresh"));
    assert.equal(fresh.status, 0, fresh.output);
    assert.match(fresh.stdout, new RegExp(`up to date: internal/executa/ is runtime version ${RUNTIME_VERSION}`));

    const adopted = join(root, "adopted");
    mkdirSync(adopted);
    writeFileSync(join(adopted, "go.mod"), "module adopted\n\ngo 1.22\n");
    writeFileSync(join(adopted, "main.go"), "package main\n\nfunc main() {}\n");
    const none = upgrade(["--json"], adopted);
    assert.equal(none.status, 2, none.output);
    assert.equal(json(none.stdout).status, "error");
    assert.match(
      none.stderr,
      /no vendored Executa runtime \(no internal\/executa\/\): create-executa did not generate it/,
    );

    const record = join(root, "fresh", "internal", "executa", "runtime.lock.json");
    const cases: [string, RegExp][] = [
      ["{ not json", /runtime\.lock\.json is not JSON/],
      [JSON.stringify({ version: 1, files: { "../../main.go": "a".repeat(64) } }), /not a file of the runtime folder/],
      [
        JSON.stringify({ version: RUNTIME_VERSION + 1, files: {} }),
        new RegExp(`runtime version ${RUNTIME_VERSION + 1}, newer than this create-executa's`),
      ],
    ];
    for (const [text, message] of cases) {
      writeFileSync(record, text);
      const before = tree(join(root, "fresh"));
      const r = upgrade([], join(root, "fresh"));
      assert.equal(r.status, 2, r.output);
      assert.match(r.stderr, message);
      assert.deepEqual(tree(join(root, "fresh")), before);
    }
    assert.ok(exists(root, "fresh", "main.go"), "a hostile record deletes nothing");

    const outside = join(root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "victim.txt"), "not the project's\n");
    symlinkSync(outside, join(root, "fresh", "internal", "executa", "sub"), "dir");
    writeFileSync(
      record,
      JSON.stringify({
        version: 1,
        files: { "sub/victim.txt": createHash("sha256").update("not the project's\n").digest("hex") },
      }),
    );
    const linked = upgrade([], join(root, "fresh"));
    assert.equal(linked.status, 0, linked.output);
    assert.ok(
      exists(outside, "victim.txt"),
      "a file reached through a link out of the runtime folder is never removed",
    );
  });
});
