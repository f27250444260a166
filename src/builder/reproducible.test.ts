import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { byteDifferences, compareBuilds, describeDifference } from "./reproducible.js";

test("byte differences: where each differing run starts, and how many bytes differ", () => {
  assert.deepEqual(byteDifferences(Buffer.from("abcdef"), Buffer.from("abcdef")), { offsets: [], count: 0 });
  assert.deepEqual(byteDifferences(Buffer.from("aXXdeY"), Buffer.from("abcdef")), { offsets: [1, 5], count: 3 });
  assert.deepEqual(byteDifferences(Buffer.from("abc"), Buffer.from("abcdef")), { offsets: [3], count: 0 });
  const many = byteDifferences(Buffer.from("a-a-a-a-a-a-a-"), Buffer.from("b-b-b-b-b-b-b-"));
  assert.equal(many.offsets.length, 5);
  assert.equal(many.count, 7);
});

test("compareBuilds lists missing and differing files, and says it in a line", () => {
  const a = mkdtempSync(join(tmpdir(), "executa-repro-a-"));
  const b = mkdtempSync(join(tmpdir(), "executa-repro-b-"));
  writeFileSync(join(a, "same"), "x");
  writeFileSync(join(b, "same"), "x");
  writeFileSync(join(a, "bin"), "0123456789");
  writeFileSync(join(b, "bin"), "0123X56789!");
  writeFileSync(join(a, "only-first"), "x");
  const diffs = compareBuilds(a, b, ["same", "bin", "only-first"]);
  assert.deepEqual(diffs, [
    { file: "bin", sizes: [10, 11], offsets: [4, 10], differingBytes: 1 },
    { file: "only-first", missing: "second" },
  ]);
  assert.equal(describeDifference(diffs[0]!), "bin: 1 bytes differ, 10 vs 11 bytes, first at offsets 4, 10");
  assert.equal(describeDifference(diffs[1]!), "only-first: only the first build wrote it");
});
