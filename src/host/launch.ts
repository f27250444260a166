/**
 * How to start a plugin: an explicit command, or detected from its folder the way Anna's own
 * runner does it (executa.json, pyproject.toml, package.json, go.mod, an executable bin/<name>).
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { which } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** A launch plus where it came from, for messages. */
export interface DetectedLaunch extends LaunchSpec {
  /** e.g. "executa.json (type node)", "package.json bin", "go.mod". */
  source: string;
  /** The project's language, when known (drives `--watch`). */
  language?: "node" | "python" | "go" | "binary";
}

function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch (error) {
    throw new ExecutaError(`${path} is not valid JSON: ${(error as Error).message}`, { hint: "fix the file, or pass the launch command after --" });
  }
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The keys and values of `[project.scripts]` in a pyproject.toml (the subset of TOML it uses). */
export function pyprojectScripts(text: string): [string, string][] {
  const out: [string, string][] = [];
  let inScripts = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (line.startsWith("[")) {
      inScripts = line === "[project.scripts]";
      continue;
    }
    if (!inScripts) continue;
    const m = /^("([^"]+)"|'([^']+)'|([A-Za-z0-9_.-]+))\s*=\s*("([^"]*)"|'([^']*)')$/.exec(line);
    if (m) out.push([m[2] ?? m[3] ?? m[4]!, m[6] ?? m[7]!]);
  }
  return out;
}

function pythonLaunch(dir: string, scriptName?: string): DetectedLaunch | undefined {
  const path = join(dir, "pyproject.toml");
  if (!existsSync(path)) return undefined;
  const scripts = pyprojectScripts(readFileSync(path, "utf8"));
  const entry = scripts.find(([k]) => k === scriptName) ?? scripts[0];
  if (!entry) throw new ExecutaError(`${path} has no [project.scripts] entry`, { hint: 'add one, e.g. my-plugin = "my_plugin.__main__:main", or pass the command after --' });
  const [name, target] = entry;
  for (const venv of [".venv", "venv"]) {
    const bin = join(dir, venv, process.platform === "win32" ? "Scripts" : "bin", name);
    if (isExecutable(bin)) return { command: bin, args: [], cwd: dir, source: `pyproject.toml script ${name} (${venv})`, language: "python" };
  }
  const [module, func = "main"] = target.split(":");
  const python = which("python3") ?? which("python");
  if (python) {
    const code = `import sys; sys.path[:0] = [${JSON.stringify(dir)}, ${JSON.stringify(join(dir, "src"))}]; from ${module} import ${func.split(".")[0]} as _m; sys.exit(_m())`;
    return { command: python, args: ["-c", code], cwd: dir, source: `pyproject.toml script ${name} (${target})`, language: "python" };
  }
  if (which("uv")) return { command: "uv", args: ["run", "--project", dir, name], cwd: dir, source: `pyproject.toml script ${name} (uv run)`, language: "python" };
  throw new ExecutaError("python3 is not on PATH", { hint: "install Python 3.10 or newer, or pass the command after --" });
}

function nodeLaunch(dir: string, toolId?: string): DetectedLaunch | undefined {
  const pkg = readJson(join(dir, "package.json"));
  if (!pkg) return undefined;
  const executa = pkg.executa as { tool_id?: unknown } | undefined;
  const id = toolId ?? (typeof executa?.tool_id === "string" ? executa.tool_id : undefined);
  let entry: string | undefined;
  let how = "";
  if (typeof pkg.bin === "string") [entry, how] = [pkg.bin, "bin"];
  else if (pkg.bin && typeof pkg.bin === "object") {
    const bins = pkg.bin as Record<string, string>;
    const key = id && bins[id] ? id : Object.keys(bins)[0];
    if (key) [entry, how] = [bins[key], `bin ${key}`];
  }
  if (!entry && typeof pkg.main === "string") [entry, how] = [pkg.main, "main"];
  if (!entry) throw new ExecutaError(`${join(dir, "package.json")} names no entry point (bin or main)`, { hint: 'add "bin": {"<tool_id>": "dist/main.js"}, or pass the command after --' });
  const file = resolve(dir, entry);
  if (!existsSync(file)) {
    const scripts = (pkg.scripts ?? {}) as Record<string, unknown>;
    const compile = ["compile", "build"].find((s) => typeof scripts[s] === "string" && !String(scripts[s]).startsWith("executa "));
    throw new ExecutaError(`the entry point ${entry} (package.json ${how}) does not exist`, {
      hint: compile ? `compile it first: npm run ${compile}` : "build the project first, or pass the command after --",
    });
  }
  return { command: process.execPath, args: [file], cwd: dir, source: `package.json ${how}`, language: "node" };
}

function goLaunch(dir: string): DetectedLaunch | undefined {
  if (!existsSync(join(dir, "go.mod"))) return undefined;
  return { command: "go", args: ["run", "."], cwd: dir, source: "go.mod (go run .)", language: "go" };
}

function binLaunch(dir: string, name: string): DetectedLaunch | undefined {
  const exe = join(dir, "bin", name + (process.platform === "win32" ? ".exe" : ""));
  return isExecutable(exe) ? { command: exe, args: [], cwd: dir, source: `bin/${basename(exe)}`, language: "binary" } : undefined;
}

function commandOf(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) return value as string[];
  if (typeof value === "string" && value.trim()) return value.trim().split(/\s+/);
  return undefined;
}

/** The launch for a plugin folder; throws an ExecutaError that says what to add when nothing fits. */
export async function detectLaunch(dirIn: string): Promise<DetectedLaunch> {
  const dir = resolve(dirIn);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ExecutaError(`${dir} is not a folder`, { hint: "pass the plugin's folder with --dir, or the command after --" });
  }
  const project = readJson(join(dir, "executa.json"));
  if (project) {
    const toolId = typeof project.tool_id === "string" ? project.tool_id : undefined;
    const type = typeof project.type === "string" ? project.type : undefined;
    const command = commandOf(project.command);
    if (command) return { command: command[0]!, args: command.slice(1), cwd: dir, source: "executa.json command", ...(type && { language: type as DetectedLaunch["language"] }) };
    const byType: Record<string, () => DetectedLaunch | undefined> = {
      python: () => pythonLaunch(dir, toolId),
      node: () => nodeLaunch(dir, toolId),
      go: () => goLaunch(dir),
      binary: () => (toolId ? binLaunch(dir, toolId) : undefined) ?? binLaunch(dir, basename(dir)),
    };
    if (type && byType[type]) {
      const found = byType[type]!();
      if (found) return { ...found, source: `executa.json (type ${type}): ${found.source}` };
      throw new ExecutaError(`executa.json says type "${type}" but ${dir} has no ${type === "binary" ? `bin/${toolId ?? basename(dir)}` : type === "go" ? "go.mod" : type === "node" ? "package.json" : "pyproject.toml"}`, {
        hint: 'add a "command" array to executa.json, or pass the command after --',
      });
    }
  }
  const found = pythonLaunch(dir) ?? nodeLaunch(dir) ?? goLaunch(dir) ?? binLaunch(dir, basename(dir));
  if (found) return found;
  throw new ExecutaError(`no plugin found in ${dir}`, {
    hint: "expected executa.json, pyproject.toml, package.json, go.mod or an executable bin/<name>; or pass the command after --, e.g. executa test -- python3 plugin.py",
  });
}
