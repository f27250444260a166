/**
 * How to start a plugin: an explicit command, or detected from its folder the way Anna's own
 * runner does it (executa.json `command`, then its `entry`, then pyproject.toml, package.json, go.mod,
 * an executable bin/<name>).
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { which } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";
import {
  binaryEntryOf,
  candidateOfEntry,
  detectLanguage,
  entryOf,
  EXECUTA_TYPES,
  goEntryArgs,
  LANGUAGES,
  projectPython,
  pythonEntry,
  readExecutaJson,
  readJsonObject,
  readPyProject,
  venvProgram,
  type ExecutaType,
  type JsonObject,
  type Language,
} from "../project/index.js";

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** A TypeScript entry that prepareLaunch bundles fresh from source before each start. */
  tsEntry?: string;
}

/** A launch plus where it came from, for messages. */
export interface DetectedLaunch extends LaunchSpec {
  /** e.g. "executa.json (type node)", "package.json bin", "go.mod". */
  source: string;
  /** The project's language, when known (drives `--watch`). */
  language?: Language | "binary";
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `python -c` code that imports `module` (with `paths` first on sys.path) and calls `func`, a dotted attribute path, as a script entry does. */
function callPython(paths: string[], module: string, func: string): string {
  return [
    `import importlib, sys; sys.path[:0] = ${JSON.stringify(paths)}; f = importlib.import_module(${JSON.stringify(module)})`,
    `for name in ${JSON.stringify(func.split("."))}: f = getattr(f, name)`,
    "sys.exit(f())",
  ].join("\n");
}

function pythonLaunch(dir: string, toolId: string | undefined): DetectedLaunch {
  const scripts = readPyProject(join(dir, "pyproject.toml"))?.scripts ?? [];
  const entry = scripts.find(([k]) => k === toolId) ?? scripts[0];
  if (!entry)
    throw new ExecutaError(`${join(dir, "pyproject.toml")} has no [project.scripts] entry`, {
      hint: 'add one, e.g. my-plugin = "my_plugin.__main__:main", or pass the command after --',
    });
  const [name, target] = entry;
  const installed = venvProgram(dir, name);
  if (installed)
    return {
      command: installed,
      args: [],
      cwd: dir,
      source: `pyproject.toml script ${name} (.venv)`,
      language: "python",
    };
  const python = projectPython(dir);
  if (python) {
    const [module = "", func = "main"] = target.split(":");
    return {
      command: python,
      args: ["-c", callPython([dir, join(dir, "src")], module, func)],
      cwd: dir,
      source: `pyproject.toml script ${name} (${target})`,
      language: "python",
    };
  }
  if (which("uv"))
    return {
      command: "uv",
      args: ["run", "--project", dir, name],
      cwd: dir,
      source: `pyproject.toml script ${name} (uv run)`,
      language: "python",
    };
  throw new ExecutaError("python3 is not on PATH and the project has no .venv", {
    hint: "install Python 3.10 or newer, or pass the command after --",
  });
}

function nodeLaunch(dir: string, toolId: string | undefined): DetectedLaunch {
  const pkg = readJsonObject(join(dir, "package.json")) ?? {};
  const tsEntry = join(dir, "src", "main.ts");
  if (existsSync(tsEntry)) {
    return {
      command: process.execPath,
      args: [tsEntry],
      cwd: dir,
      tsEntry,
      source: "src/main.ts (compiled fresh by tsc -p tsconfig.json)",
      language: "ts",
    };
  }
  const id = toolId ?? str((pkg.executa as JsonObject | undefined)?.tool_id);
  let entry: string | undefined;
  let how = "";
  if (typeof pkg.bin === "string") [entry, how] = [pkg.bin, "bin"];
  else if (pkg.bin && typeof pkg.bin === "object") {
    const bins = pkg.bin as Record<string, unknown>;
    const key = id && str(bins[id]) ? id : Object.keys(bins).find((k) => str(bins[k]));
    if (key) [entry, how] = [bins[key] as string, `bin ${key}`];
  }
  if (!entry && str(pkg.main)) [entry, how] = [pkg.main as string, "main"];
  if (!entry)
    throw new ExecutaError(`${join(dir, "package.json")} names no entry point (bin or main)`, {
      hint: 'add "bin": {"<tool_id>": "plugin.js"}, or pass the command after --',
    });
  const file = resolve(dir, entry);
  if (!existsSync(file))
    throw new ExecutaError(`the entry point ${entry} (package.json ${how}) does not exist`, {
      hint: "build the project first, or pass the command after --",
    });
  return { command: process.execPath, args: [file], cwd: dir, source: `package.json ${how}`, language: "ts" };
}

function goLaunch(dir: string): DetectedLaunch {
  return { command: "go", args: ["run", "."], cwd: dir, source: "go.mod (go run .)", language: "go" };
}

function binLaunch(dir: string, name: string): DetectedLaunch | undefined {
  const exe = join(dir, "bin", name + (process.platform === "win32" ? ".exe" : ""));
  return isExecutable(exe)
    ? { command: exe, args: [], cwd: dir, source: `bin/${basename(exe)}`, language: "binary" }
    : undefined;
}

function commandOf(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) return value as string[];
  if (typeof value === "string" && value.trim()) return value.trim().split(/\s+/);
  return undefined;
}

function requireProjectPython(dir: string): string {
  const python = projectPython(dir);
  if (!python)
    throw new ExecutaError("python3 is not on PATH and the project has no .venv", {
      hint: "install Python 3.10 or newer, or pass the command after --",
    });
  return python;
}

/** How an executa.json `entry` of each type starts (README: "executa.json of an adopted plugin"). */
export function launchOfEntry(dirIn: string, type: ExecutaType, entry: string): DetectedLaunch {
  const dir = resolve(dirIn);
  const source = `executa.json entry ${entry}`;
  switch (type) {
    case "node": {
      const file = resolve(dir, entry);
      return {
        command: process.execPath,
        args: [file],
        cwd: dir,
        ...(/\.[cm]?ts$/.test(entry) && { tsEntry: file }),
        source,
        language: "ts",
      };
    }
    case "python": {
      const python = requireProjectPython(dir);
      const py = pythonEntry(dir, entry);
      if (py.kind === "script")
        return { command: python, args: [resolve(dir, py.file)], cwd: dir, source, language: "python" };
      if (py.kind === "package")
        return { command: python, args: ["-m", py.name], cwd: dir, source, language: "python" };
      return {
        command: python,
        args: ["-c", callPython([dir], py.module, py.func)],
        cwd: dir,
        source,
        language: "python",
      };
    }
    case "go":
      return { command: "go", args: ["run", ...goEntryArgs(dir, entry)], cwd: dir, source, language: "go" };
    case "binary":
      return { command: resolve(dir, entry), args: [], cwd: dir, source, language: "binary" };
  }
}

const LAUNCHERS: Record<Language, (dir: string, toolId: string | undefined) => DetectedLaunch> = {
  python: pythonLaunch,
  ts: nodeLaunch,
  go: goLaunch,
};

/** The launch for a plugin folder; throws an ExecutaError that says what to add when nothing fits. */
export async function detectLaunch(dirIn: string): Promise<DetectedLaunch> {
  const dir = resolve(dirIn);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ExecutaError(`${dir} is not a folder`, { hint: "pass the plugin's folder, or the command after --" });
  }
  const project = readExecutaJson(dir);
  const toolId = str(project?.tool_id);
  const command = commandOf(project?.command);
  if (command) return { command: command[0]!, args: command.slice(1), cwd: dir, source: "executa.json command" };
  const entry = entryOf(dir, project);
  if (entry) {
    const declared = EXECUTA_TYPES.find((t) => t === project?.type);
    return launchOfEntry(dir, declared ?? candidateOfEntry(dir, entry).type, entry);
  }
  if (project?.type === "binary") {
    const executable = binaryEntryOf(dir, project);
    if (executable)
      return {
        command: join(dir, executable),
        args: [],
        cwd: dir,
        source: `executa.json (type binary): ${executable}`,
        language: "binary",
      };
    throw new ExecutaError(
      `executa.json says type "binary" but ${dir} has no executable bin/${toolId ?? basename(dir)}`,
      { hint: 'add a "command" array to executa.json, or pass the command after --' },
    );
  }
  const language = detectLanguage(dir, project);
  if (language) {
    const marker = LANGUAGES[language].marker;
    if (!existsSync(join(dir, marker))) {
      throw new ExecutaError(`executa.json says type "${String(project?.type)}" but ${dir} has no ${marker}`, {
        hint: 'add a "command" array to executa.json, or pass the command after --',
      });
    }
    const found = LAUNCHERS[language](dir, toolId);
    return project?.type ? { ...found, source: `executa.json (type ${String(project.type)}): ${found.source}` } : found;
  }
  const bin = binLaunch(dir, basename(dir));
  if (bin) return bin;
  throw new ExecutaError(`no plugin found in ${dir}`, {
    hint: "expected executa.json, pyproject.toml, package.json, go.mod or an executable bin/<name>; or pass the command after --, e.g. executa test -- python3 plugin.py",
  });
}
