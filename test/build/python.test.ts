import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { build } from "../../src/build/index.js";
import { exec } from "../../src/common/exec.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import { copyFixture } from "./helpers.js";

const dir = copyFixture("py-plugin");
after(() => rmSync(dir, { recursive: true, force: true }));

test("Python: PyInstaller one-file for the host, manifest.json as data, verified", { timeout: 10 * 60_000 }, async (t) => {
  if ((await exec("python3", ["-m", "PyInstaller", "--version"])).code !== 0) return t.skip("PyInstaller is not installed");
  const report = await build({ projectDir: dir });
  assert.equal(report.targets.length, 1);
  assert.equal(report.targets[0]!.platform, hostPlatformKey());
  assert.equal(report.targets[0]!.runtime, "pyinstaller");
  assert.equal(report.targets[0]!.verify.status, "passed", JSON.stringify(report.targets[0]!.verify));
});

test("Python: other targets are an error that points to a CI matrix", async () => {
  const other = hostPlatformKey() === "linux-x86_64" ? "windows-x86_64" : "linux-x86_64";
  await assert.rejects(build({ projectDir: dir, targets: other }), (e: Error & { hint?: string }) => {
    assert.match(e.message, /PyInstaller builds only for this machine/);
    assert.match(e.hint ?? "", /matrix/);
    return true;
  });
});
