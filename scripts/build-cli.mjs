#!/usr/bin/env node
// After tsc: bundles the two command lines with esbuild into dist/cli/ (one file per entry plus
// lazily loaded chunks: loading one bundle is much faster than ~100 ES modules), then writes the
// help text of both beside them for the fast path of a bare `--help` (src/cli/fast.ts).
// A test proves the help files equal to the live help. The page of `executa inspect` is bundled
// here too, from its TypeScript source (type-checked by its own tsconfig), into dist/cli/web/.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "cli");
rmSync(out, { recursive: true, force: true });
await esbuild.build({
  entryPoints: {
    executa: join(root, "dist/src/cli/executa.js"),
    "create-executa": join(root, "dist/src/cli/create-executa.js"),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Native or very large packages stay as they are, loaded from node_modules when needed.
  external: [
    "esbuild",
    "typescript",
    "postject",
    "portable-executable-signature",
    "@cyclonedx/cyclonedx-library",
    "packageurl-js",
    "spdx-expression-parse",
  ],
  // CommonJS dependencies inside an ES module bundle call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __executaCreateRequire } from "node:module"; const require = __executaCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
  legalComments: "none",
});
const web = join(root, "src", "workbench", "web");
const page = { outdir: join(out, "web"), bundle: true, minify: true, legalComments: "none", logLevel: "warning" };
await esbuild.build({
  ...page,
  entryPoints: { app: join(web, "main.ts") },
  format: "esm",
  platform: "browser",
  target: ["chrome110", "firefox110", "safari16"],
});
await esbuild.build({ ...page, entryPoints: { app: join(web, "style.css") } });
mkdirSync(join(out, "help"), { recursive: true });
for (const program of ["executa", "create-executa"]) {
  const text = execFileSync(process.execPath, [join(out, `${program}.js`), "--help"], {
    env: { ...process.env, EXECUTA_NO_FAST_PATH: "1", NO_COLOR: "1" },
    encoding: "utf8",
  });
  writeFileSync(join(out, "help", `${program}.txt`), text);
}
