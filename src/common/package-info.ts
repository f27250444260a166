/** Facts about this installed package: where it lives and its version. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root (the folder with package.json, templates/ and helpers/), from wherever this code was compiled or bundled to. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "templates"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("create-executa: cannot find the package root above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = packageRoot();

export const PACKAGE_JSON = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
};

export const PACKAGE_VERSION = PACKAGE_JSON.version;
export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");
export const HELPERS_DIR = join(PACKAGE_ROOT, "helpers");
/** The bundled page of `executa inspect` (written by scripts/build-cli.mjs). */
export const WEB_DIR = join(PACKAGE_ROOT, "dist", "cli", "web");
