import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { build, checkAdhocSignature, unzip } from "../../src/builder/index.js";
import { which } from "../../src/common/exec.js";
import { canRunAarch64, copyFixture } from "./helpers.js";

const dir = copyFixture("go-plugin");
after(() => rmSync(dir, { recursive: true, force: true }));

test("Go: every target builds, the host one (and linux-aarch64 under qemu) passes, darwin is signed", { timeout: 10 * 60_000 }, async (t) => {
  if (!which("go")) return t.skip("go is not installed");
  const report = await build({ skipManifestCheck: true, projectDir: dir, targets: "all" });
  assert.equal(report.targets.length, 7);
  const byKey = new Map(report.targets.map((x) => [x.platform, x]));
  assert.equal(byKey.get("linux-x86_64")!.verify.status, "passed", JSON.stringify(byKey.get("linux-x86_64")!.verify));
  if (canRunAarch64()) assert.equal(byKey.get("linux-aarch64")!.verify.status, "passed");
  assert.ok(report.targets.every((x) => x.runtime === "go" && x.verify.status !== "failed"));
  const darwin = checkAdhocSignature(readFileSync(join(dir, "dist", "fixture-go-darwin-arm64")));
  assert.deepEqual(darwin.badPages, []);
  const zipped = unzip(readFileSync(join(dir, "dist", "fixture-go-windows-arm64.zip")));
  assert.deepEqual(zipped.map((e) => e.path), ["manifest.json", "bin/fixture-go.exe"]);
  const again = await build({ skipManifestCheck: true, projectDir: dir, targets: "linux-x86_64,darwin-arm64", outDir: join(dir, "again"), verify: false });
  for (const x of again.targets) assert.equal(x.sha256, byKey.get(x.platform)!.sha256, `${x.platform} is not reproducible`);
});
