/** --fixtures: the harness recording format and our own lines, replayed; unknown lines are errors with their line numbers. */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runChecks } from "../../src/conform/index.js";
import { readFixture, TRANSCRIPT_URL_BASE, type LaunchSpec } from "../../src/host/index.js";
import { Workbench } from "../../src/workbench/index.js";
import { pluginLaunch } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "executa-fixtures-"));
const write = (name: string, lines: unknown[]) => {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return file;
};

/** A focus-flow style recording: app-level events around one tools.invoke and one of the plugin's own requests. */
const HARNESS = [
  { t: 0, kind: "meta", harness_version: "0.1", session_id: "dev-session", window_uuid: "dev-wid" },
  { t: 1, kind: "req", id: 1, ns: "window", method: "hello", args: {} },
  { t: 2, kind: "res", id: 1, ok: true, result: { ready: true } },
  {
    t: 3,
    kind: "req",
    id: 2,
    ns: "tools",
    method: "invoke",
    args: { tool_id: "tool-x", method: "echo", args: { text: "hi", times: 2 } },
  },
  { t: 9, kind: "res", id: 2, ok: true, result: { success: true, data: { text: "hi hi", tags: [] } } },
  { t: 10, kind: "req", id: 3, ns: "executa", method: "invoke", args: { tool: "echo", arguments: {} } },
  {
    t: 11,
    kind: "res",
    id: 3,
    ok: false,
    error: {
      code: -32602,
      message: "Invalid arguments for tool 'echo'",
      data: { errors: [{ parameter: "text", message: "required" }] },
    },
  },
  { t: 12, kind: "req", id: 4, ns: "executa", method: "health" },
  { t: 13, kind: "res", id: 4, ok: true, result: { status: "ready" } },
  { t: 1800, kind: "auth.refresh", token: "dev-token-rotated" },
];

/** One `executa dev --record` run: a fresh workbench (plugin and mock host) appending these invokes to `file`. */
async function record(file: string, launch: LaunchSpec, invokes: [string, Record<string, unknown>][]): Promise<void> {
  const workbench = new Workbench(launch, { record: file, echo: false });
  try {
    await workbench.start();
    for (const [tool, args] of invokes) {
      const r = await workbench.invoke(tool, args);
      assert.ok("result" in r.frame, JSON.stringify(r.frame));
    }
  } finally {
    await workbench.close();
  }
}

/** The lines of a recording without what differs every run by nature: times, durations and the session's name. */
const timeless = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => {
      const { t: _t, session_id: _id, ...rest } = JSON.parse(l) as Record<string, unknown>;
      const result = rest.result as Record<string, unknown> | undefined;
      if (result && typeof result.duration_ms === "number") rest.result = { ...result, duration_ms: "(varies)" };
      return rest;
    });

describe("fixtures", () => {
  it("reads a harness recording: what concerns the plugin is replayed, app-level events are named", () => {
    const fixture = readFixture(write("harness.jsonl", HARNESS));
    assert.deepEqual(
      fixture.exchanges.map((x) => [x.line, x.method, x.app ?? false]),
      [
        [4, "invoke", true],
        [6, "invoke", false],
        [8, "health", false],
      ],
    );
    assert.deepEqual(fixture.exchanges[0]!.params, { tool: "echo", arguments: { text: "hi", times: 2 } });
    assert.deepEqual(fixture.exchanges[1]!.expect, { error: HARNESS[6]!.error });
    assert.deepEqual(fixture.notReplayed.sort(), ["auth.refresh", "window.hello"]);
  });

  it("reads our own {request, expect} lines", () => {
    const fixture = readFixture(
      write("ours.jsonl", [
        { request: { method: "health" }, expect: { result: { status: "$any" } } },
        { request: { method: "health" }, expect: "none" },
      ]),
    );
    assert.deepEqual(
      fixture.exchanges.map((x) => [x.line, x.method, x.expect]),
      [
        [1, "health", { result: { status: "$any" } }],
        [2, "health", "none"],
      ],
    );
  });

  it("refuses unknown and broken lines with their line numbers", () => {
    const bad = (name: string, lines: unknown[], message: RegExp) =>
      assert.throws(() => readFixture(write(name, lines)), message);
    bad("kind.jsonl", [HARNESS[0], { t: 5, kind: "snapshot", id: 1 }], /kind\.jsonl:2: unknown kind "snapshot"/);
    bad("neither.jsonl", [{ method: "health" }], /neither\.jsonl:1: neither a harness event .* nor an exchange/);
    bad("json.jsonl", ["{nope"], /json\.jsonl:1: not JSON/);
    bad(
      "orphan.jsonl",
      [{ t: 1, kind: "res", id: 9, ok: true, result: {} }],
      /orphan\.jsonl:1: a "res" for id 9, which no earlier "req" has/,
    );
    bad(
      "ok.jsonl",
      [
        { t: 1, kind: "req", id: 1, ns: "executa", method: "health" },
        { t: 2, kind: "res", id: 1, result: {} },
      ],
      /ok\.jsonl:2: a "res" event needs ok/,
    );
    bad("expect.jsonl", [{ request: { method: "health" } }], /expect\.jsonl:1: an exchange needs/);
  });

  it("replays a harness recording against a plugin, and a changed answer fails with its line", async () => {
    const good = await runChecks(pluginLaunch("node/reference.mjs"), {
      only: ["fixtures"],
      fixtures: join(dir, "harness.jsonl"),
    });
    assert.deepEqual(
      good.results.map((r) => [r.id, r.status]),
      [["fixtures/harness", "pass"]],
      JSON.stringify(good.results),
    );
    assert.match(
      good.results[0]!.message!,
      /not replayed \(app-level, not about a plugin\): (window\.hello, auth\.refresh|auth\.refresh, window\.hello)/,
    );
    const changed = HARNESS.map((l) =>
      l.id === 2 && l.kind === "res" ? { ...l, result: { success: true, data: { text: "hi" } } } : l,
    );
    const bad = await runChecks(pluginLaunch("node/reference.mjs"), {
      only: ["fixtures"],
      fixtures: write("changed.jsonl", changed),
    });
    assert.equal(bad.results[0]!.status, "fail");
    assert.match(bad.results[0]!.message!, /changed\.jsonl line 4 \(invoke\): expected/);
  });

  it("a recording holds the reverse requests of each invoke, and a replay must make the same ones", async () => {
    const file = join(dir, "recorded.jsonl");
    const workbench = new Workbench(pluginLaunch("node/reference.mjs"), { record: file, echo: false });
    try {
      await workbench.start();
      await workbench.invoke("ask", { question: "why?" });
    } finally {
      await workbench.close();
    }
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const reverse = lines.filter((l) => l.kind === "reverse");
    assert.deepEqual(
      reverse.map((l) => [l.method, l.ok, l.for]),
      [["sampling/createMessage", true, lines.find((l) => l.kind === "req" && l.method === "invoke")!.id]],
    );
    const good = await runChecks(pluginLaunch("node/reference.mjs"), { only: ["fixtures"], fixtures: file });
    assert.deepEqual(
      good.results.map((r) => [r.id, r.status]),
      [["fixtures/recorded", "pass"]],
      JSON.stringify(good.results),
    );
    const other = lines.map((l) =>
      l.kind === "reverse" ? { ...l, params: { ...(l.params as object), maxTokens: 1 } } : l,
    );
    const bad = await runChecks(pluginLaunch("node/reference.mjs"), {
      only: ["fixtures"],
      fixtures: write("other-reverse.jsonl", other),
    });
    assert.equal(bad.results[0]!.status, "fail");
    assert.match(
      bad.results[0]!.message!,
      /other-reverse\.jsonl line \d+ \(invoke\): line \d+: expected the reverse request sampling\/createMessage/,
    );
  });

  it("the mock host's URLs are recorded with one stable base, and a recording that uploads, fetches and edits replays", async () => {
    const corpus: [string, [string, Record<string, unknown>][]][] = [
      [
        "image-poster.mjs",
        [
          ["make_poster", { prompt: "a cat" }],
          ["upload_artifact", { size_kib: 2 }],
        ],
      ],
      ["files-backup.mjs", [["backup_text", { text: "hello" }]]],
    ];
    for (const [plugin, invokes] of corpus) {
      const launch = pluginLaunch(`../plugins/node/${plugin}`);
      const file = join(dir, `urls-${plugin}.jsonl`);
      await record(file, launch, invokes);
      const text = readFileSync(file, "utf8");
      assert.doesNotMatch(text, /127\.0\.0\.1/, "no live port or token in the transcript");
      assert.ok(text.includes(`${TRANSCRIPT_URL_BASE}/get/`), text.slice(0, 2000));
      const again = join(dir, `urls-again-${plugin}.jsonl`);
      await record(again, launch, invokes);
      assert.deepEqual(
        timeless(again),
        timeless(file),
        "two recordings of the same session are the same, ids and URLs included",
      );
      const replay = await runChecks(launch, { only: ["fixtures"], fixtures: file });
      assert.deepEqual(
        replay.results.map((r) => [r.id, r.status]),
        [[`fixtures/urls-${plugin}`, "pass"]],
        JSON.stringify(replay.results),
      );
    }
  });

  it("each recorded session appended to one file replays on a fresh plugin and mock host, as it was recorded", async () => {
    const launch = pluginLaunch("../plugins/node/files-backup.mjs");
    const file = join(dir, "appended.jsonl");
    await record(file, launch, [["backup_text", { text: "one" }]]);
    await record(file, launch, [
      ["backup_text", { text: "two" }],
      ["list_backups", {}],
    ]);
    assert.deepEqual(
      readFixture(file).exchanges.map((x) => [x.session, x.method]),
      [
        [1, "initialize"],
        [1, "describe"],
        [1, "invoke"],
        [2, "initialize"],
        [2, "describe"],
        [2, "invoke"],
        [2, "invoke"],
      ],
    );
    const replay = await runChecks(launch, { only: ["fixtures"], fixtures: file });
    assert.deepEqual(
      replay.results.map((r) => [r.id, r.status]),
      [["fixtures/appended", "pass"]],
      JSON.stringify(replay.results),
    );
  });
});
