/**
 * The plugin as Anna runs it: spawn it, speak the protocol over stdio, and check the answers.
 * The runtime itself (src/executa/) is tested in create-executa, against the contract every
 * runtime shares; this test checks that your plugin is wired to it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/main.js", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../../manifest.json", import.meta.url), "utf8"));

test("the plugin answers describe, invoke and health on stdout, with frames only, and exits 0 on EOF", () => {
  const requests = [
    { jsonrpc: "2.0", id: 1, method: "describe" },
    { jsonrpc: "2.0", id: 2, method: "invoke", params: { tool: "text_stats", arguments: { text: "b a c b a b d" } } },
    { jsonrpc: "2.0", id: 3, method: "health" },
  ];
  const run = spawnSync(process.execPath, [main], {
    input: requests.map((r) => JSON.stringify(r) + "\n").join(""),
    encoding: "utf8",
    timeout: 10_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const frames = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
  const byId = new Map(frames.map((f) => [f.id, f]));
  assert.equal(frames.length, 3, run.stdout);
  assert.deepEqual(byId.get(1).result, manifest);
  assert.deepEqual(byId.get(2).result.data, {
    words: 7,
    characters: 13,
    distinct_words: 4,
    top: [
      { word: "b", count: 3 },
      { word: "a", count: 2 },
      { word: "c", count: 1 },
    ],
    reading_minutes: 0.03,
  });
  assert.equal(byId.get(2).result.success, true);
  assert.equal(byId.get(3).result.status, "ready");
});
