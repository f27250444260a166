#!/usr/bin/env node
// npm's `prepare`: builds this package, except when another project links this checkout in and
// it is already built. create-executa run from a source checkout installs the checkout into the
// new project (npm install --no-save <checkout>), and npm prepares a linked folder. Building then
// would delete dist/cli under the create-executa that is running from it, and under every other
// process of this checkout (a test run's), and give the project another toolchain than the one
// that made it. `npm run build` rebuilds by hand. Packing or publishing it builds it, from anywhere.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = realpathSync(join(dirname(fileURLToPath(import.meta.url)), ".."));
const from = process.env.INIT_CWD ? realpathSync(process.env.INIT_CWD) : root;
const built = existsSync(join(root, "dist", "cli", "create-executa.js"));
const packing = ["pack", "publish"].includes(process.env.npm_command ?? "");

if (from !== root && built && !packing) {
  process.stdout.write(`create-executa: linked into ${from} as built; npm run build in ${root} rebuilds it\n`);
} else {
  // The package manager that runs this script (npm, pnpm and yarn are scripts; bun is a binary).
  const pm = process.env.npm_execpath;
  const [command, args] = pm && /\.[cm]?js$/.test(pm) ? [process.execPath, [pm]] : [pm ?? "npm", []];
  const r = spawnSync(command, [...args, "run", "build"], {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32" && !pm,
  });
  process.exit(r.status ?? 1);
}
