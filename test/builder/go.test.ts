import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { build, checkAdhocSignature, unzip } from "../../src/builder/index.js";
import { scaffoldProject } from "./helpers.js";
import { optional, requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

test("Go: every target builds, the host one (and linux-aarch64 under qemu) passes, darwin is signed; reproducible across runs and folders", {
  ...requires("go"),
  timeout: 10 * 60_000,
}, async (t) => {
  const dir = await scaffoldProject("go", "go-plugin");
  made.push(dir);
  const report = await build({ projectDir: dir, target: "all" });
  assert.equal(report.targets.length, 7);
  const byKey = new Map(report.targets.map((x) => [x.platform, x]));
  assert.equal(byKey.get("linux-x86_64")!.verify.status, "passed", JSON.stringify(byKey.get("linux-x86_64")!.verify));
  if (optional("qemu", t)) assert.equal(byKey.get("linux-aarch64")!.verify.status, "passed");
  assert.ok(report.targets.every((x) => x.runtime === "go" && x.verify.status !== "failed"));
  const darwin = checkAdhocSignature(readFileSync(join(dir, "dist", "go-plugin-darwin-arm64")));
  assert.deepEqual(darwin.badPages, []);
  const zipped = unzip(readFileSync(join(dir, "dist", "go-plugin-windows-arm64.zip")));
  assert.deepEqual(
    zipped.map((e) => e.path),
    ["manifest.json", "bin/go-plugin.exe"],
  );

  // One target per executable format and archive (ELF in a tar.gz, signed Mach-O, PE in a zip):
  // with an empty GOCACHE the second build compiles the standard library again for each.
  const checked = await build({
    projectDir: dir,
    target: "linux-x86_64,darwin-arm64,windows-arm64",
    outDir: join(dir, "checked"),
    verify: false,
    reproducibleCheck: true,
  });
  assert.equal(checked.reproducible?.identical, true, JSON.stringify(checked.reproducible?.differences));
  assert.ok(
    checked.reproducible!.conditions.fresh_caches.includes("GOCACHE"),
    "the second build compiles everything again",
  );
  assert.ok(
    !checked.reproducible!.conditions.project_dir.startsWith(dir),
    "the second build ran from a copy in another folder",
  );
  for (const x of checked.targets) {
    assert.equal(x.sha256, byKey.get(x.platform)!.sha256, `${x.platform}: the same bytes as the build of every target`);
    assert.equal(x.archive.sha256, byKey.get(x.platform)!.archive.sha256, x.platform);
  }
});
