import assert from "node:assert/strict";
import { test } from "node:test";
import type { ToolDefinition } from "../protocol/index.js";
import { sampleNote, sampleTools } from "./tool-sample.js";

const tools = (n: number): ToolDefinition[] =>
  Array.from({ length: n }, (_, i) => ({ name: `t${i}`, description: "d", parameters: [] }));
const names = (list: ToolDefinition[]) => list.map((t) => t.name);

test("up to the cap every tool is exercised, and nothing is said of a sample", () => {
  const sample = sampleTools(tools(200), 200, 1);
  assert.deepEqual(names(sample.tools), names(tools(200)));
  assert.equal(sampleNote(sample), "");
});

test("past the cap: the same seed picks the same distinct tools, in manifest order; another seed picks others", () => {
  const all = tools(10_000);
  const a = sampleTools(all, 200, 1);
  assert.deepEqual(names(sampleTools(all, 200, 1).tools), names(a.tools));
  assert.equal(new Set(names(a.tools)).size, 200);
  const order = a.tools.map((t) => all.indexOf(t));
  assert.deepEqual(
    order,
    [...order].sort((x, y) => x - y),
  );
  assert.notDeepEqual(names(sampleTools(all, 200, 2).tools), names(a.tools));
  assert.ok(order.at(-1)! > 5_000, "the sample reaches past the first tools");
  assert.match(
    sampleNote(a),
    /^200 of 10000 tools checked \(a sample picked by seed 1; --all-tools checks every one\)$/,
  );
});
