import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "../e2e/toolchain.js";
import { scan } from "./cannot-fail.js";

test("no test of the suite is unable to fail", () => {
  const findings = scan(REPO_ROOT);
  assert.deepEqual(
    findings.map((f) => `${f.where}: ${f.problem}`),
    [],
  );
});

test("the scan finds a test without an assertion and assertions on constants, and accepts helpers that assert", () => {
  const file = join(mkdtempSync(join(tmpdir(), "executa-cannot-fail-")), "sample.test.ts");
  writeFileSync(
    file,
    [
      'import assert from "node:assert/strict";',
      'test("empty", () => {});',
      'it("only computes", () => { const x = 1 + 1; console.log(x); });',
      'test("constant", () => { assert.ok(true); assert.equal(1, 1); t.assert.deepEqual("a", "a"); });',
      "function checkShape(v: unknown) { if (!v) throw new Error('no'); }",
      "const deeper = (v: unknown) => checkShape(v);",
      'test("through helpers", () => { deeper(compute()); });',
      'test("real", async () => { assert.equal(await compute(), 2); });',
      'test("rejects", async () => { await assert.rejects(compute()); });',
      'import { build } from "../src/builder/index.js";',
      'test("only runs our code", async () => { await build(); setTimeout(() => {}, 1); });',
      "for (const [name, scenario] of SCENARIOS) it(name, () => scenario(probe));",
    ].join("\n"),
  );
  const found = scan(tmpdir(), [file]).map((f) => `${f.where.replace(/^.*:/, "")} ${f.problem}`);
  assert.deepEqual(found, [
    "2 the test asserts nothing: it cannot fail",
    "3 the test asserts nothing: it cannot fail",
    "4 assert.ok on constants cannot fail",
    "4 assert.equal on constants cannot fail",
    "4 t.assert.deepEqual on constants cannot fail",
    "11 the test asserts nothing: it cannot fail",
  ]);
});
