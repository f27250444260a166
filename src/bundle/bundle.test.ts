import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { BuildError, bundle } from "./bundle.js";

const root = mkdtempSync(join(tmpdir(), "executa-bundle-"));
after(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function fails(dir: string): Promise<BuildError> {
  try {
    await bundle({ projectDir: dir });
  } catch (error) {
    assert.ok(error instanceof BuildError, String(error));
    return error;
  }
  assert.fail("bundle should have failed");
}

test("a plain plugin bundles into one CommonJS file with its JSON inlined", async () => {
  const dir = project("ok", {
    "manifest.json": '{"name":"ok"}',
    "src/main.ts":
      'import m from "../manifest.json" with { type: "json" };\nimport { x } from "./x.js";\nconsole.error(m.name, x);\n',
    "src/x.ts": "export const x: number = 1;\n",
  });
  const { code, warnings } = await bundle({ projectDir: dir });
  assert.deepEqual(warnings, []);
  assert.match(code, /var manifest_default = \{ name: "ok" \}/);
  assert.equal(code, (await bundle({ projectDir: dir })).code, "bundles are reproducible");
});

test("a native addon is a build error with its location and a fix", async () => {
  const e = await fails(project("addon", { "src/main.ts": 'import addon from "./fast.node";\nconsole.log(addon);\n' }));
  assert.equal(e.diagnostics[0]!.file, "src/main.ts");
  assert.equal(e.diagnostics[0]!.line, 1);
  assert.match(e.message, /src\/main\.ts:1:\d+: error: native addon/);
  assert.match(e.hint ?? "", /pure JavaScript or WebAssembly/);
});

test("a dynamic require of a non-builtin is a build error", async () => {
  const e = await fails(
    project("dynreq", {
      "src/main.ts":
        'const name = process.argv[2]!;\nconst m = require(name);\nconst fs = require("node:fs");\nconsole.log(m, fs);\n',
    }),
  );
  assert.equal(e.diagnostics[0]!.line, 2);
  assert.match(e.hint ?? "", /string literal/);
});

test("import.meta.url, filename and dirname name the executable, as Node names a single executable's main script", async () => {
  const dir = project("meta", {
    "src/main.ts":
      'import { fileURLToPath } from "node:url";\nconsole.log(JSON.stringify([fileURLToPath(import.meta.url), import.meta.filename, import.meta.dirname]));\n',
  });
  const { code, warnings } = await bundle({ projectDir: dir });
  assert.match(warnings[0]?.message ?? "", /import\.meta names the executable/);
  assert.equal(warnings[0]?.file, "src/main.ts");
  const file = join(dir, "bundle.cjs");
  writeFileSync(file, code);
  const run = spawnSync(process.execPath, [file], { encoding: "utf8" });
  assert.deepEqual(JSON.parse(run.stdout), [process.execPath, process.execPath, dirname(process.execPath)]);
});

test("another import.meta property is a build error whose fix works under tsc's ES modules too", async () => {
  const e = await fails(project("meta-resolve", { "src/main.ts": 'console.log(import.meta.resolve("./x.js"));\n' }));
  assert.match(e.message, /src\/main\.ts:1:\d+: error:/);
  assert.match(e.hint ?? "", /only import\.meta\.url, import\.meta\.filename and import\.meta\.dirname/);
  assert.doesNotMatch(e.hint ?? "", /__dirname/);
});

test("stack traces of the bundle point at the project's source lines", async () => {
  const dir = project("trace", {
    "src/main.ts": 'import { fail } from "./fail.js";\nfail();\n',
    "src/fail.ts": 'export function fail(): never {\n  // a comment\n  throw new Error("boom");\n}\n',
  });
  const { code } = await bundle({ projectDir: dir });
  assert.doesNotMatch(code, new RegExp(root), "no absolute path of the build machine in the bundle");
  const file = join(dir, "bundle.cjs");
  writeFileSync(file, code);
  const run = spawnSync(process.execPath, ["--enable-source-maps", file], { encoding: "utf8" });
  assert.match(run.stderr, /at fail \(.*src\/fail\.ts:3:9\)/);
});

test("top-level await is a build error with a fix", async () => {
  const e = await fails(project("tla", { "src/main.ts": "await new Promise((r) => setTimeout(r, 1));\nexport {};\n" }));
  assert.match(e.hint ?? "", /top-level await/);
  assert.equal(e.diagnostics[0]!.line, 1);
});

test("a missing entry says where the entry belongs", async () => {
  await assert.rejects(
    bundle({ projectDir: project("noentry", { "manifest.json": "{}" }) }),
    /entry src\/main\.ts not found/,
  );
});
