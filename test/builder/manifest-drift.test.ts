/** The seam between build and manifest: a hand-edited manifest.json never ships. */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { build } from "../../src/builder/index.js";
import { ExecutaError, ExitCode } from "../../src/common/errors.js";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";

const root = mkdtempSync(join(tmpdir(), "executa-drift-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("build runs the real manifest check: drift fails with the changes and writes nothing; in sync builds", {
  timeout: 5 * 60_000,
}, async () => {
  const dir = join(root, "drift-plugin");
  await scaffold({
    targetDir: dir,
    spec: makeSpec({ lang: "go", name: "drift-plugin" }),
    install: false,
    git: false,
    quiet: true,
  });
  const manifestPath = join(dir, "manifest.json");
  const original = readFileSync(manifestPath, "utf8");
  const edited = JSON.parse(original) as { tools: { name: string; description: string }[] };
  edited.tools[0]!.description = "Edited by hand";
  writeFileSync(manifestPath, JSON.stringify(edited, null, 2) + "\n");

  await assert.rejects(build({ projectDir: dir, verify: false }), (error: unknown) => {
    assert.ok(error instanceof ExecutaError);
    assert.equal(error.exitCode, ExitCode.Failed);
    assert.match(error.message, /manifest\.json is out of date/);
    assert.match(error.message, new RegExp(`${edited.tools[0]!.name}.*description`));
    assert.match(error.hint ?? "", /executa manifest/);
    return true;
  });
  assert.equal(existsSync(join(dir, "dist")), false, "a refused build writes nothing");

  writeFileSync(manifestPath, original);
  const report = await build({ projectDir: dir, verify: false });
  assert.equal(report.manifest_check, "checked");
  assert.equal(JSON.parse(readFileSync(join(dir, "dist", "build.json"), "utf8")).manifest_check, "checked");
});
