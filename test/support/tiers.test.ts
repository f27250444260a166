import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "../e2e/toolchain.js";
import { FULL_TIER, isFullTier, prerequisite, REGISTRY_FILES, RUNS_AFTER, schedule } from "./tiers.js";

/** The source a compiled entry comes from: `test/e2e/` stays, `test/x.test.js` becomes `test/x.test.ts`. */
const source = (entry: string) => join(REPO_ROOT, entry.endsWith("/") ? entry : entry.replace(/\.js$/, ".ts"));

test("every full-tier and registry entry names a test file or folder that exists", () => {
  for (const entry of [...FULL_TIER, ...REGISTRY_FILES, ...Object.entries(RUNS_AFTER).flat()]) {
    assert.ok(
      existsSync(source(entry)),
      `${entry} is listed in test/support/tiers.ts but ${source(entry)} does not exist`,
    );
    assert.equal(
      statSync(source(entry)).isDirectory(),
      entry.endsWith("/"),
      `${entry}: a folder entry ends with "/", a file entry does not`,
    );
  }
  for (const file of REGISTRY_FILES)
    assert.ok(isFullTier(file), `${file} publishes to a registry: it belongs to the full tier`);
});

test("the tiers split as declared: a folder entry takes its whole folder, a file entry only itself", () => {
  assert.equal(isFullTier("dist/test/e2e/registry.test.js"), true);
  assert.equal(isFullTier("dist/test/cli/examples.test.js"), true);
  assert.equal(isFullTier("dist/test/cli/cli.test.js"), false);
  assert.equal(isFullTier("dist/src/protocol/validate.test.js"), false);
  assert.equal(isFullTier("dist/test/e2e-like/x.test.js"), false);
});

test("files run longest first from the recorded durations, unknown files before all of them", () => {
  const order = schedule(["dist/a.test.js", "dist/b.test.js", "dist/new.test.js", "dist/c.test.js"], {
    "a.test.js": 3,
    "b.test.js": 90,
    "c.test.js": 12,
  });
  assert.deepEqual(order, ["dist/new.test.js", "dist/b.test.js", "dist/c.test.js", "dist/a.test.js"]);
});

test("a file waits for its prerequisite only when that file is in the run", () => {
  const files = ["dist/test/cli/examples.test.js", "dist/test/builder/go.test.js", "dist/test/cli/cli.test.js"];
  assert.equal(prerequisite("dist/test/cli/examples.test.js", files), "dist/test/builder/go.test.js");
  assert.equal(prerequisite("dist/test/cli/examples.test.js", ["dist/test/cli/examples.test.js"]), undefined);
  assert.equal(prerequisite("dist/test/cli/cli.test.js", files), undefined);
});

test("the runner refuses a path that is neither a folder nor a compiled test file, and runs nothing", () => {
  const runner = join(REPO_ROOT, "scripts", "run-tests.mjs");
  for (const path of ["dist/no-such-folder", "dist/test/support/tiers.js", "README.md"]) {
    const r = spawnSync(process.execPath, [runner, path], { cwd: REPO_ROOT, encoding: "utf8" });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr, `run-tests: ${path} is neither a folder nor a compiled test file (dist/**/*.test.js)\n`);
    assert.equal(r.stdout, "");
  }
});
