/** Python projects: the interpreter to use (the project's virtual environment first) and the package. */
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { which, whichAll } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";
import type { PyProject } from "./files.js";

const VENV_DIRS = [".venv", "venv"];
const binDir = process.platform === "win32" ? "Scripts" : "bin";
const exe = process.platform === "win32" ? ".exe" : "";

/** The project's virtual environment folder (`.venv` as uv and the scaffold make it), if any. */
export function projectVenv(dir: string): string | undefined {
  return VENV_DIRS.map((v) => join(dir, v)).find((v) => existsSync(join(v, binDir, `python${exe}`)));
}

/** A program installed in the project's virtual environment (a script, PyInstaller...), if any. */
export function venvProgram(dir: string, name: string): string | undefined {
  const venv = projectVenv(dir);
  const path = venv && join(venv, binDir, name + exe);
  return path && existsSync(path) ? path : undefined;
}

/** The interpreter for the project: its virtual environment's, else python3 (python) on PATH. */
export function projectPython(dir: string): string | undefined {
  const venv = projectVenv(dir);
  if (venv) return join(venv, binDir, `python${exe}`);
  return which(process.platform === "win32" ? "python" : "python3") ?? which("python");
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True when `path`, links resolved, lies inside `dir`. */
function within(dir: string, path: string): boolean {
  const rel = relative(realPath(dir), realPath(path));
  return rel === "" || (!isAbsolute(rel) && !rel.startsWith(".."));
}

/**
 * A program of the toolchain's own choosing for work on the project that must not run the project's
 * code: the first on PATH that does not lie inside the project (so never its .venv, or a script it
 * ships, even with that venv activated).
 */
export function toolchainProgram(names: readonly string[], projectDir: string): string | undefined {
  for (const name of names) {
    const found = whichAll(name).find((p) => !within(projectDir, p));
    if (found) return found;
  }
  return undefined;
}

/** The python3 the toolchain runs its own helpers with (never the project's interpreter). */
export function toolchainPython(projectDir: string): string | undefined {
  return toolchainProgram(process.platform === "win32" ? ["python", "python3"] : ["python3", "python"], projectDir);
}

/** Like projectPython, or an error that says how to get Python. */
export function requirePython(dir: string): string {
  const python = projectPython(dir);
  if (!python)
    throw new ExecutaError("python3 is not installed and the project has no .venv", {
      hint: "install Python 3.10 or newer (or create .venv), then run the command again",
    });
  return python;
}

/** The plugin's package: the module of a [project.scripts] entry, else the one folder with __main__.py. */
export function findPyModule(dir: string, pyproject: PyProject | undefined, toolId?: string): string {
  const scripts = pyproject?.scripts ?? [];
  const [, target] = scripts.find(([name]) => name === toolId) ?? scripts[0] ?? [];
  const fromScript = target?.split(":")[0]?.split(".")[0];
  if (fromScript && existsSync(join(dir, fromScript, "__main__.py"))) return fromScript;
  const candidates = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && existsSync(join(dir, e.name, "__main__.py")))
    .map((e) => e.name);
  if (candidates.length === 1) return candidates[0]!;
  throw new ExecutaError(
    candidates.length
      ? `several Python packages have a __main__.py (${candidates.join(", ")})`
      : "cannot find the plugin's Python package (a folder with __main__.py)",
    { hint: 'name it in pyproject.toml [project.scripts] as `<tool_id> = "<package>.__main__:main"`' },
  );
}
