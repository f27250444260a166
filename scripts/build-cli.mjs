#!/usr/bin/env node
// After tsc: bundles the two command lines with esbuild into dist/cli/ (one file per entry plus
// lazily loaded chunks: loading one bundle is much faster than ~100 ES modules), then writes the
// help text of both beside them for the fast path of a bare `--help` (src/cli/fast.ts).
// A test proves the help files equal to the live help. The page of `executa inspect` is bundled
// here too, from its TypeScript source (type-checked by its own tsconfig), into dist/cli/web/.
// The packages bundled in are devDependencies (nothing installs them beside the package); their
// licences go into dist/cli/THIRD-PARTY-NOTICES.md.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "cli");
rmSync(out, { recursive: true, force: true });
const { metafile } = await esbuild.build({
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
  metafile: true,
});
writeFileSync(join(out, "THIRD-PARTY-NOTICES.md"), notices(metafile));
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

/** The name, version, licence and licence text of every npm package with code in the bundle. */
function notices(meta) {
  const folders = new Set();
  for (const input of Object.keys(meta.inputs)) {
    const folder = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
    if (folder) folders.add(join(root, folder));
  }
  const packages = new Map();
  for (const dir of folders) {
    const { name, version, license } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    packages.set(`${name}@${version}`, { dir, name, version, license });
  }
  const sections = [...packages.keys()]
    .sort()
    .map((key) => packages.get(key))
    .map(({ dir, name, version, license }) => {
      const file = readdirSync(dir).find((f) => /^(licen[sc]e|copying)/i.test(f));
      if (!file) throw new Error(`${name} is bundled into dist/cli but has no licence file to copy into its notices`);
      return `## ${name}@${version} (${license})\n\n\`\`\`\n${readFileSync(join(dir, file), "utf8").trim()}\n\`\`\`\n`;
    });
  return `# Third-party notices\n\nThe command lines in this folder bundle these npm packages.\n\n${sections.join("\n")}`;
}
