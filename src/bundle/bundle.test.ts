import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    "src/main.ts": 'import m from "../manifest.json" with { type: "json" };\nimport { x } from "./x.js";\nconsole.error(m.name, x);\n',
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
  const e = await fails(project("dynreq", { "src/main.ts": "const name = process.argv[2]!;\nconst m = require(name);\nconst fs = require(\"node:fs\");\nconsole.log(m, fs);\n" }));
  assert.equal(e.diagnostics[0]!.line, 2);
  assert.match(e.hint ?? "", /string literal/);
});

test("import.meta, empty in CommonJS, is a build error", async () => {
  const e = await fails(project("meta", { "src/main.ts": "console.log(import.meta.url);\n" }));
  assert.match(e.message, /src\/main\.ts:1:\d+: error:/);
  assert.match(e.hint ?? "", /import\.meta is empty/);
});

test("top-level await is a build error with a fix", async () => {
  const e = await fails(project("tla", { "src/main.ts": "await new Promise((r) => setTimeout(r, 1));\nexport {};\n" }));
  assert.match(e.hint ?? "", /top-level await/);
  assert.equal(e.diagnostics[0]!.line, 1);
});

test("a missing entry says where the entry belongs", async () => {
  await assert.rejects(bundle({ projectDir: project("noentry", { "manifest.json": "{}" }) }), /entry src\/main\.ts not found/);
});
