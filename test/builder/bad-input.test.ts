import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { build, BuildError } from "../../src/builder/index.js";
import type { ExecutaError } from "../../src/common/errors.js";
import { scaffoldProject } from "./helpers.js";
import { requires } from "../support/requires.js";

let pristine: string;
before(async () => {
  pristine = await scaffoldProject("ts", "bad-input");
});

/** A fresh copy of the scaffolded TypeScript project, for one test to break. */
function project(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "executa-bad-input-")), "bad-input");
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

test("no manifest.json: a clear error that says to run executa manifest", async () => {
  const dir = project();
  rmSync(join(dir, "manifest.json"));
  await assert.rejects(
    build({ projectDir: dir }),
    (e: ExecutaError) => /no manifest\.json/.test(e.message) && /executa manifest/.test(e.hint ?? ""),
  );
});

test("unknown target: the error lists the valid keys", async () => {
  await assert.rejects(
    build({ projectDir: project(), target: "macos-arm64" }),
    (e: ExecutaError) => /unknown target 'macos-arm64'/.test(e.message) && /darwin-arm64/.test(e.hint ?? ""),
  );
});

test("linux-armv7l for a TypeScript plugin says Node has no such build", async () => {
  await assert.rejects(build({ projectDir: project(), target: "linux-armv7l" }), /no linux-armv7l build/);
});

test("options of another language are refused with the language named", async () => {
  await assert.rejects(
    build({ projectDir: project(), pythonLayout: "onefile" }),
    /--python-layout applies to Python plugins only, not ts/,
  );
  await assert.rejects(
    build({ projectDir: project(), runtime: "bun", codeCache: true }),
    /do not combine with --runtime bun/,
  );
});

test("entry not found", async () => {
  const dir = project();
  rmSync(join(dir, "src", "main.ts"));
  await assert.rejects(build({ projectDir: dir, verify: false }), /entry src\/main\.ts not found/);
});

test("a plugin importing a native addon fails with the import's location", async () => {
  const dir = project();
  const main = readFileSync(join(dir, "src", "main.ts"), "utf8");
  writeFileSync(join(dir, "src", "main.ts"), main + 'import addon from "./fast.node";\nvoid addon;\n');
  const line = main.split("\n").length;
  await assert.rejects(build({ projectDir: dir, verify: false }), (e: unknown) => {
    assert.ok(e instanceof BuildError);
    assert.match(e.message, new RegExp(`src/main\\.ts:${line}:\\d+: error: native addon`));
    return true;
  });
});

test("npm unreachable with an empty cache: says how to fill the cache", async () => {
  const dir = project();
  const saved = { ...process.env };
  process.env.EXECUTA_CACHE_DIR = mkdtempSync(join(tmpdir(), "executa-empty-cache-"));
  process.env.npm_config_registry = "http://127.0.0.1:9/";
  process.env.npm_config_cache = mkdtempSync(join(tmpdir(), "executa-empty-npm-"));
  process.env.npm_config_fetch_retries = "0";
  process.env.npm_config_offline = "false";
  try {
    await assert.rejects(build({ projectDir: dir }), (e: ExecutaError) => {
      assert.match(e.message, /could not fetch node-/);
      assert.match(e.hint ?? "", /cached in .*executa-empty-cache-/);
      return true;
    });
  } finally {
    process.env = saved;
  }
});

test("a write that fails halfway leaves no half-written file, checksums or build.json", requires("go"), async () => {
  const dir = await scaffoldProject("go", "halfway");
  // The archive's name is taken by a non-empty folder, so writing the archive fails after the build.
  mkdirSync(join(dir, "dist", "halfway-linux-x86_64.tar.gz", "x"), { recursive: true });
  await assert.rejects(build({ projectDir: dir, target: "linux-x86_64", verify: false }));
  assert.deepEqual(readdirSync(join(dir, "dist")).sort(), ["halfway-linux-x86_64", "halfway-linux-x86_64.tar.gz"]);
});
