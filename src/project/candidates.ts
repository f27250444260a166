/**
 * The ways a folder holding a plugin we did not generate could be started, in Anna's discovery
 * order (pyproject.toml, package.json, go.mod, an executable), for `executa init`.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { goMainFiles, type ExecutaType } from "./entry.js";
import { readJsonObject, readPyProject, type JsonObject } from "./files.js";
import { nativePlatformOf } from "./native.js";

export interface EntryCandidate {
  type: ExecutaType;
  /** executa.json `entry`: project-relative (a Python `module:function` for a pyproject script). */
  entry: string;
  /** Where it was found, for messages. */
  source: string;
  /** The tool id the files around it give: package.json `executa.tool_id` or its bin key, a pyproject script name. */
  toolId?: string;
}

const JS_EXTENSIONS = [".js", ".mjs", ".cjs"];
const NOT_A_PLUGIN =
  /(?:^|[._-])(?:test|spec|config|setup|conftest)(?:[._-]|$)|^(?:__init__|__main__)\.py$|^(?:eslint|prettier|jest|vite|webpack|rollup|babel)\b/i;
const MAX_SNIFF = 1 << 20;

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return isFile(path);
  } catch {
    return false;
  }
}

/** Plain files directly in `dir`, sorted, hidden ones left out. */
function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith(".") && (e.isFile() || (e.isSymbolicLink() && isFile(join(dir, e.name)))))
    .map((e) => e.name)
    .sort();
}

/** Script files of `extensions` directly in `dir` that read standard input (a plugin must). */
function stdinScripts(dir: string, extensions: readonly string[], reads: RegExp): string[] {
  return filesIn(dir).filter((name) => {
    if (!extensions.includes(extname(name)) || NOT_A_PLUGIN.test(name)) return false;
    if (statSync(join(dir, name)).size > MAX_SNIFF) return false;
    return reads.test(readFileSync(join(dir, name), "utf8"));
  });
}

function pythonCandidates(dir: string): EntryCandidate[] {
  const scripts = readPyProject(join(dir, "pyproject.toml"))?.scripts ?? [];
  if (scripts.length)
    return scripts.map(([name, target]) => ({
      type: "python",
      entry: target,
      source: `pyproject.toml script ${name}`,
      toolId: name,
    }));
  const packages = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && existsSync(join(dir, e.name, "__main__.py")))
    .map((e): EntryCandidate => ({ type: "python", entry: e.name, source: `${e.name}/__main__.py` }));
  const files = stdinScripts(dir, [".py"], /\bsys\.stdin\b|\binput\s*\(/).map(
    (f): EntryCandidate => ({ type: "python", entry: f, source: "a Python script reading stdin" }),
  );
  return [...packages, ...files];
}

function nodeCandidates(dir: string): EntryCandidate[] {
  const pkg: JsonObject = readJsonObject(join(dir, "package.json")) ?? {};
  const declared = str((pkg.executa as JsonObject | undefined)?.tool_id);
  const found: EntryCandidate[] = [];
  const add = (file: string | undefined, source: string, toolId?: string) => {
    if (!file || !isFile(join(dir, file))) return;
    const entry = file.replace(/^\.\//, "");
    if (!found.some((c) => c.entry === entry))
      found.push({ type: "node", entry, source, ...((declared ?? toolId) && { toolId: declared ?? toolId }) });
  };
  if (typeof pkg.bin === "string") add(pkg.bin, "package.json bin", str(pkg.name));
  else if (pkg.bin && typeof pkg.bin === "object")
    for (const [name, file] of Object.entries(pkg.bin as JsonObject)) add(str(file), `package.json bin ${name}`, name);
  add(str(pkg.main), "package.json main", str(pkg.name));
  if (found.length) return found;
  return stdinScripts(dir, JS_EXTENSIONS, /\bstdin\b/).map((f) => ({
    type: "node",
    entry: f,
    source: "a JavaScript file reading stdin",
  }));
}

function goCandidates(dir: string): EntryCandidate[] {
  const mains = goMainFiles(dir);
  if (mains.length === 1 && existsSync(join(dir, "go.mod")))
    return [{ type: "go", entry: ".", source: `go.mod (${mains[0]})` }];
  if (mains.length === 0 && existsSync(join(dir, "go.mod"))) return goCommandPackages(dir);
  return mains.map((f) => ({ type: "go", entry: f, source: "a Go file with func main" }));
}

/** Go's layout for a module whose programs live in `cmd/<name>/`: each such package with one main. */
function goCommandPackages(dir: string): EntryCandidate[] {
  const cmd = join(dir, "cmd");
  if (!existsSync(cmd) || !statSync(cmd).isDirectory()) return [];
  return readdirSync(cmd, { withFileTypes: true })
    .filter((e) => e.isDirectory() && goMainFiles(join(cmd, e.name)).length === 1)
    .map((e) => e.name)
    .sort()
    .map((name) => ({
      type: "go",
      entry: `cmd/${name}`,
      source: `go.mod, cmd/${name} (a Go main package)`,
      toolId: name,
    }));
}

function binaryCandidates(dir: string): EntryCandidate[] {
  const inFolder = (sub: string) =>
    filesIn(join(dir, sub))
      .map((f) => (sub ? `${sub}/${f}` : f))
      .filter((f) => isExecutable(join(dir, f)) && nativePlatformOf(join(dir, f)) !== undefined)
      .map(
        (f): EntryCandidate => ({ type: "binary", entry: f, source: `a ${nativePlatformOf(join(dir, f))} executable` }),
      );
  return [...inFolder(""), ...inFolder("bin")];
}

/** Every way to start the plugin in `dir` that its files show, in Anna's discovery order. */
export function findEntryCandidates(dir: string): EntryCandidate[] {
  return [...pythonCandidates(dir), ...nodeCandidates(dir), ...goCandidates(dir), ...binaryCandidates(dir)];
}

/** The candidate an explicit `--entry` names: its type from the file (extension, folder, executable header). */
export function candidateOfEntry(dir: string, entry: string): EntryCandidate {
  const hint =
    "name the file that starts the plugin: a .js/.mjs/.cjs file, a .py script or package folder, a .go main file, or an executable";
  const known = findEntryCandidates(dir).find((c) => c.entry === entry.replace(/^\.\//, ""));
  if (known) return { ...known, source: `--entry (${known.source})` };
  const path = join(dir, entry);
  if (!existsSync(path)) throw new ExecutaError(`--entry ${entry}: no such file in ${dir}`, { hint });
  const ext = extname(entry);
  if (statSync(path).isDirectory()) {
    if (existsSync(join(path, "__main__.py")))
      return { type: "python", entry, source: "--entry (a package with __main__.py)" };
    if (goMainFiles(path).length === 1) return { type: "go", entry, source: "--entry (a Go package)" };
    throw new ExecutaError(`--entry ${entry} is a folder without __main__.py or one Go main`, { hint });
  }
  if (JS_EXTENSIONS.includes(ext) || ext === ".ts") return { type: "node", entry, source: "--entry" };
  if (ext === ".py") return { type: "python", entry, source: "--entry" };
  if (ext === ".go") return { type: "go", entry, source: "--entry" };
  if (isExecutable(path)) return { type: "binary", entry, source: "--entry (an executable)" };
  throw new ExecutaError(`--entry ${entry}: cannot tell how to start it`, { hint });
}
