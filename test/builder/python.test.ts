import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build, launchFor, verifyLaunch } from "../../src/builder/index.js";
import { exec } from "../../src/common/exec.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import { copyFixture } from "./helpers.js";

const dir = copyFixture("py-plugin");
after(() => rmSync(dir, { recursive: true, force: true }));

test("Python: PyInstaller one-file for the host, manifest.json as data, verified", { timeout: 10 * 60_000 }, async (t) => {
  if ((await exec("python3", ["-m", "PyInstaller", "--version"])).code !== 0) return t.skip("PyInstaller is not installed");
  const report = await build({ skipManifestCheck: true, projectDir: dir });
  assert.equal(report.targets.length, 1);
  assert.equal(report.targets[0]!.platform, hostPlatformKey());
  assert.equal(report.targets[0]!.runtime, "pyinstaller");
  const verify = report.targets[0]!.verify;
  assert.deepEqual(verify.failures ?? [], [], JSON.stringify(verify));
  assert.equal(verify.status, "passed", JSON.stringify(verify));
  const launch = launchFor(report.targets[0]!.platform, hostPlatformKey()!, join(report.dist, report.targets[0]!.file));
  assert.ok(!("skip" in launch));
  assert.deepEqual((await verifyLaunch(launch, readFileSync(join(dir, "manifest.json"), "utf8"))).failures, []);
});

test("Python: other targets are an error that points to a CI matrix", async () => {
  const other = hostPlatformKey() === "linux-x86_64" ? "windows-x86_64" : "linux-x86_64";
  await assert.rejects(build({ skipManifestCheck: true, projectDir: dir, targets: other }), (e: Error & { hint?: string }) => {
    assert.match(e.message, /PyInstaller builds only for this machine/);
    assert.match(e.hint ?? "", /matrix/);
    return true;
  });
});
