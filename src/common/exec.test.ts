import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

test("exec: a program that cannot start leaves no timer behind (the process ends at once)", () => {
  const module = fileURLToPath(new URL("./exec.js", import.meta.url));
  const script = `import(${JSON.stringify(module)}).then(async ({ exec }) => { const r = await exec("executa-no-such-program", [], { timeoutMs: 60000 }); console.log(r.spawnError.code); })`;
  const started = Date.now();
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.stdout.trim(), "ENOENT");
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
});

test("exec: the timeout stops a program that runs too long", async () => {
  const { exec } = await import("./exec.js");
  const started = Date.now();
  const r = await exec(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { timeoutMs: 300 });
  assert.notEqual(r.code, 0);
  assert.ok(Date.now() - started < 10_000);
});
