import assert from "node:assert/strict";
import { test } from "node:test";
import { unifiedDiff } from "./unified-diff.js";

test("unified diff: hunks with 3 lines of context and correct ranges", () => {
  const a = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"].join("\n") + "\n";
  const b = ["1", "2", "3", "4", "five", "6", "7", "8", "9", "10", "11"].join("\n") + "\n";
  assert.equal(
    unifiedDiff(a, b, "m.json"),
    "--- a/m.json\n+++ b/m.json\n@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n+11\n",
  );
  assert.equal(unifiedDiff(a, a, "m.json"), "");
  assert.equal(unifiedDiff("", "x\n", "new"), "--- a/new\n+++ b/new\n@@ -0,0 +1,1 @@\n+x\n");
});
