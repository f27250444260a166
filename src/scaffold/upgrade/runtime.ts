/**
 * The runtime this toolchain vendors, now and before: the current files (templates/<lang>/) and the
 * hashes of every version since the first (runtime-hashes.json), which let `executa upgrade` tell
 * the files an author left alone from the ones they changed.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { TEMPLATES_DIR } from "../../common/package-info.js";
import { LANGUAGES, languagePath, TEMPLATE_PY_MODULE, type Language } from "../../project/index.js";
import { listFiles } from "../render.js";
import table from "./runtime-hashes.json" with { type: "json" };

/** Runtime-folder-relative path (`/` separators) -> sha256 (runtimeHash). */
export type RuntimeHashes = Record<string, string>;

/** runtime-hashes.json: version -> language -> the hashes of that version's runtime files. */
type RuntimeHistory = Record<string, Record<Language, RuntimeHashes>>;

const RUNTIME_HISTORY = table as RuntimeHistory;

/** The hashes of one version of a language's runtime, or undefined for a version this toolchain never had. */
export function hashesOf(version: number, language: Language): RuntimeHashes | undefined {
  return RUNTIME_HISTORY[String(version)]?.[language];
}

/** The versions the table knows, oldest first. */
export function knownVersions(): number[] {
  return Object.keys(RUNTIME_HISTORY)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Where a language's runtime sits in this package's templates. */
function templateRuntimeDir(language: Language): string {
  return join(TEMPLATES_DIR, language, languagePath(LANGUAGES[language].runtimeDir, TEMPLATE_PY_MODULE));
}

/** The toolchain's current runtime files for a language, by runtime-folder-relative path. */
export async function currentRuntime(language: Language): Promise<Map<string, Buffer>> {
  const dir = templateRuntimeDir(language);
  const files = new Map<string, Buffer>();
  for (const path of await listFiles(dir)) files.set(path, await readFile(join(dir, path)));
  return files;
}
