import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { build, checkAdhocSignature } from "../../src/builder/index.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import { scaffoldProject } from "./helpers.js";

let dir: string;
before(async () => {
  dir = await scaffoldProject("ts", "bun-plugin");
});
after(() => rmSync(dirname(dir), { recursive: true, force: true }));

test("--runtime bun: the host artifact passes verification; darwin-arm64 is ad-hoc signed; the SBOM names Bun", {
  timeout: 10 * 60_000,
}, async () => {
  const host = hostPlatformKey()!;
  const report = await build({ projectDir: dir, runtime: "bun", target: [host, "darwin-arm64"] });
  const built = report.targets.find((t) => t.platform === host)!;
  assert.equal(built.runtime, "bun");
  assert.equal(built.verify.status, "passed", JSON.stringify(built.verify));
  const darwin = checkAdhocSignature(readFileSync(join(dir, "dist", "bun-plugin-darwin-arm64")));
  assert.deepEqual(darwin.badPages, []);
  const sbom = JSON.parse(readFileSync(join(dir, "dist", "sbom.cdx.json"), "utf8")) as {
    components: Array<{ name: string; purl: string }>;
  };
  assert.ok(
    sbom.components.some((c) => c.name === "bun" && c.purl.startsWith("pkg:npm/%40oven/bun-darwin-aarch64@")),
    JSON.stringify(sbom.components),
  );
});

test("--snapshot with a non-host target is refused", async () => {
  await assert.rejects(
    build({ projectDir: dir, snapshot: true, target: "all" }),
    /--snapshot builds only for this machine/,
  );
});
