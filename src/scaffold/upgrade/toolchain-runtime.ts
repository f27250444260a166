/** The runtime this toolchain vendors: the files of templates/<lang>/<runtime folder>. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { TEMPLATES_DIR } from "../../common/package-info.js";
import { LANGUAGES, languagePath, type Language } from "../../project/index.js";

/** The template's placeholder for the Python package. */
const PY_MODULE = "__pyModule__";

/** The runtime folder in templates/<lang>/. */
export function templateRuntimeDir(lang: Language): string {
  return join(TEMPLATES_DIR, lang, languagePath(LANGUAGES[lang].runtimeDir, PY_MODULE));
}

/** Files under dir, runtime-folder-relative with `/` separators, sorted; byte-code caches left out. */
export async function runtimeFilesIn(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && e.name !== "__pycache__") out.push(...(await runtimeFilesIn(dir, path)));
    else if (e.isFile()) out.push(path);
  }
  return out.sort();
}

/** path -> content of the toolchain's runtime for the language. */
export async function toolchainRuntime(lang: Language): Promise<Map<string, Buffer>> {
  const dir = templateRuntimeDir(lang);
  const files = new Map<string, Buffer>();
  for (const path of await runtimeFilesIn(dir)) files.set(path, await readFile(join(dir, path)));
  return files;
}
