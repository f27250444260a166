import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { build, checkAdhocSignature } from "../../src/builder/index.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import { copyFixture } from "./helpers.js";

const dir = copyFixture("ts-plugin");
after(() => rmSync(dir, { recursive: true, force: true }));

test("--runtime bun: the host artifact passes verification; darwin-arm64 is ad-hoc signed", { timeout: 10 * 60_000 }, async () => {
  const host = hostPlatformKey()!;
  const report = await build({ skipManifestCheck: true, projectDir: dir, runtime: "bun", targets: [host, "darwin-arm64"] });
  const built = report.targets.find((t) => t.platform === host)!;
  assert.equal(built.runtime, "bun");
  assert.equal(built.verify.status, "passed", JSON.stringify(built.verify));
  const darwin = checkAdhocSignature(readFileSync(join(dir, "dist", "fixture-ts-darwin-arm64")));
  assert.deepEqual(darwin.badPages, []);
});

test("--snapshot with a non-host target is refused", async () => {
  await assert.rejects(build({ skipManifestCheck: true, projectDir: dir, snapshot: true, targets: "all" }), /--snapshot builds only for this machine/);
});
