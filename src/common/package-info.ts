/** Facts about this installed package: where it lives and its version. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root (the folder with package.json, templates/ and helpers/). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export const PACKAGE_JSON = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
};

export const PACKAGE_VERSION = PACKAGE_JSON.version;
export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");
export const HELPERS_DIR = join(PACKAGE_ROOT, "helpers");
