/**
 * executa.json's fields for a plugin we did not generate: `entry` (what starts it when there is no
 * `command`, and what `executa build` packages) and `manifest_source` (where manifest.json comes from).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join, normalize, sep } from "node:path";
import { ExecutaError } from "../common/errors.js";
import type { JsonObject } from "./files.js";

/** executa.json `type`: Anna's four. */
export const EXECUTA_TYPES = ["node", "python", "go", "binary"] as const;
export type ExecutaType = (typeof EXECUTA_TYPES)[number];

/** `manifest_source` when manifest.json is the running plugin's describe answer (not extracted from source). */
export const MANIFEST_FROM_PLUGIN = "plugin";

export function manifestFromPlugin(executaJson: JsonObject | undefined): boolean {
  return executaJson?.manifest_source === MANIFEST_FROM_PLUGIN;
}

const PY_FUNCTION = /^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$/;
const ENTRY_HINT =
  'set "entry" to a file inside the plugin folder, e.g. "plugin.js", "plugin.py", "main.go" or "bin/my-plugin"';

/** A project-relative path that stays inside the project (no absolute path, no `..`). */
export function insideProject(path: string): boolean {
  if (!path || isAbsolute(path) || /^[A-Za-z]:/.test(path)) return false;
  const clean = normalize(path);
  return clean !== ".." && !clean.startsWith(`..${sep}`);
}

/** executa.json `entry`, checked; undefined when there is none. */
export function entryOf(dir: string, executaJson: JsonObject | undefined): string | undefined {
  const entry = executaJson?.entry;
  if (entry === undefined) return undefined;
  if (typeof entry !== "string" || !entry.trim())
    throw new ExecutaError("executa.json: entry must be a non-empty string", { hint: ENTRY_HINT });
  if (executaJson?.type === "python" && PY_FUNCTION.test(entry)) return entry;
  if (!insideProject(entry))
    throw new ExecutaError(`executa.json: entry ${JSON.stringify(entry)} is outside the plugin folder`, {
      hint: ENTRY_HINT,
    });
  if (!existsSync(join(dir, entry)))
    throw new ExecutaError(`executa.json: the entry ${entry} does not exist in ${dir}`, { hint: ENTRY_HINT });
  return entry;
}

const isFileIn = (dir: string, path: string): boolean =>
  insideProject(path) && existsSync(join(dir, path)) && statSync(join(dir, path)).isFile();

/**
 * A binary plugin's executable, project-relative: executa.json `entry`, else Anna's
 * `bin/<tool_id>`, else `bin/<folder name>`, else the `command`'s program when it is a file of the folder.
 */
export function binaryEntryOf(dir: string, executaJson: JsonObject): string | undefined {
  const entry = entryOf(dir, executaJson);
  if (entry) return entry;
  const exe = process.platform === "win32" ? ".exe" : "";
  const toolId = typeof executaJson.tool_id === "string" && executaJson.tool_id ? executaJson.tool_id : undefined;
  const command =
    Array.isArray(executaJson.command) && typeof executaJson.command[0] === "string"
      ? executaJson.command[0].replace(/^\.\//, "")
      : undefined;
  const candidates = [toolId && `bin/${toolId}${exe}`, `bin/${basename(dir)}${exe}`, command];
  return candidates.find((c): c is string => Boolean(c && isFileIn(dir, c)));
}

export type PythonEntry =
  | { kind: "script"; file: string }
  | { kind: "package"; name: string }
  | { kind: "function"; module: string; func: string };

/** What a Python `entry` names: a script file, a package folder holding __main__.py, or `module:function`. */
export function pythonEntry(dir: string, entry: string): PythonEntry {
  if (PY_FUNCTION.test(entry) && !entry.endsWith(".py")) {
    const [module, func] = entry.split(":") as [string, string];
    return { kind: "function", module, func };
  }
  const path = join(dir, entry);
  if (existsSync(path) && statSync(path).isDirectory()) {
    if (!existsSync(join(path, "__main__.py")))
      throw new ExecutaError(`the Python entry ${entry} is a folder without __main__.py`, {
        hint: "name a script (plugin.py), a package with __main__.py, or module:function",
      });
    return {
      kind: "package",
      name: normalize(entry)
        .replace(/[\\/]+$/, "")
        .split(/[\\/]/)
        .join("."),
    };
  }
  return { kind: "script", file: entry };
}

const GOOS =
  "aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|netbsd|openbsd|plan9|solaris|wasip1|windows|zos";
const GOARCH = "386|amd64|arm|arm64|loong64|mips|mips64|mips64le|mipsle|ppc64|ppc64le|riscv64|s390x|wasm";
/** A file Go builds only for some platforms (by name); named explicitly, Go would build it everywhere. */
const PLATFORM_FILE = new RegExp(`_(?:(?:${GOOS})(?:_(?:${GOARCH}))?|${GOARCH})\\.go$`);

interface GoFile {
  name: string;
  isMain: boolean;
  hasMainFunc: boolean;
  constrained: boolean;
}

/** Go source without its block comments (one pass: an unterminated one runs to the end). */
function withoutBlockComments(text: string): string {
  let out = "";
  let at = 0;
  for (let open = text.indexOf("/*"); open >= 0; open = text.indexOf("/*", at)) {
    out += text.slice(at, open);
    const close = text.indexOf("*/", open + 2);
    at = close < 0 ? text.length : close + 2;
  }
  return out + text.slice(at);
}

function readGoFile(dir: string, name: string): GoFile {
  const text = readFileSync(join(dir, name), "utf8");
  const code = withoutBlockComments(text);
  return {
    name,
    isMain: /^[ \t]*package\s+main\b/m.test(code),
    hasMainFunc: /^func\s+main\s*\(\s*\)/m.test(code),
    constrained: /^\/\/go:build\s/m.test(text) || PLATFORM_FILE.test(name),
  };
}

/** The package-main `.go` files directly in `dir` (tests left out), sorted. */
function goFiles(dir: string): GoFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".go") && !e.name.endsWith("_test.go") && !e.name.startsWith("."))
    .map((e) => readGoFile(dir, e.name))
    .filter((f) => f.isMain)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The files in `dir` that declare `func main()` in package main. */
export function goMainFiles(dir: string): string[] {
  return goFiles(dir)
    .filter((f) => f.hasMainFunc)
    .map((f) => f.name);
}

/**
 * The files of one `main` in a folder that has several: the main file, then every other
 * package-main file of the folder without a `func main` and without a build constraint.
 */
export function goFileSet(dir: string, mainFile: string): string[] {
  const helpers = goFiles(dir)
    .filter((f) => !f.hasMainFunc && !f.constrained && f.name !== mainFile)
    .map((f) => f.name);
  return [mainFile, ...helpers];
}

/** A Go `entry`: a `.go` file (built with its file set) or a package folder such as `.` or `./cmd/x`. */
export function goEntryArgs(dir: string, entry: string): string[] {
  if (entry.endsWith(".go")) {
    if (entry.includes("/") || entry.includes("\\"))
      throw new ExecutaError(`the Go entry ${entry} must be a file directly in the plugin folder`, {
        hint: "name a main file of the folder, or a package folder such as ./cmd/my-plugin",
      });
    return goFileSet(dir, entry);
  }
  return [entry === "." || entry.startsWith("./") ? entry : `./${entry}`];
}
