/**
 * Python plugins: PyInstaller for the host only, with the project's virtual environment when it
 * has one, manifest.json shipped as data. Two layouts: one folder (the default: nothing to unpack
 * at start-up) or one file (unpacks itself into a temp folder on every start).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec, tail } from "../common/exec.js";
import { projectVenv, requirePython } from "../project/index.js";
import type { PlatformKey } from "../protocol/index.js";

export type PythonLayout = "onedir" | "onefile";
export const PYTHON_LAYOUTS: readonly PythonLayout[] = ["onedir", "onefile"];

/** A fixed time for everything PyInstaller stamps, so builds are byte for byte the same. */
const SOURCE_DATE_EPOCH = "499162500";

export interface PythonTool {
  /** The interpreter that runs PyInstaller (and whose packages are bundled). */
  python: string;
  pyinstallerVersion: string;
  /** The interpreter's own version, `3.12.4`. */
  pythonVersion: string;
}

/** The project's interpreter (its .venv first) with PyInstaller, or an error that says how to add it. */
export async function pythonTool(projectDir: string): Promise<PythonTool> {
  const python = requirePython(projectDir);
  const result = await exec(python, ["-c", "import platform, PyInstaller; print(PyInstaller.__version__); print(platform.python_version())"], { cwd: projectDir });
  if (result.code !== 0) {
    const venv = projectVenv(projectDir);
    throw new ExecutaError(`PyInstaller is not installed for ${python}`, {
      hint: venv
        ? `install it into the project's virtual environment: \`${python} -m pip install "pyinstaller>=6.10"\` (or \`uv sync --extra build\`)`
        : "run the build as `uv run --with pyinstaller executa build`, or install the project's build extra (`pip install -e '.[build]'`)",
    });
  }
  const [pyinstallerVersion = "", pythonVersion = ""] = result.stdout.trim().split("\n").map((l) => l.trim());
  return { python, pyinstallerVersion, pythonVersion };
}

/** The host-only rule: PyInstaller cannot cross-build. */
export function checkPythonTargets(targets: readonly PlatformKey[], host: PlatformKey): void {
  const others = targets.filter((t) => t !== host);
  if (others.length > 0) {
    throw new ExecutaError(`PyInstaller builds only for this machine (${host}), not ${others.join(", ")}`, {
      hint: "build each platform on its own runner: the template's .github/workflows build matrix does this",
    });
  }
}

export interface PyInstallerOptions {
  tool: PythonTool;
  projectDir: string;
  pyModule: string;
  name: string;
  layout: PythonLayout;
  workDir: string;
  outDir: string;
}

/**
 * Builds `<pyModule>/__main__.py`. Returns the output: the executable (onefile), or the folder
 * holding the executable and its `_internal/` (onedir).
 */
export async function pyinstallerBuild(options: PyInstallerOptions): Promise<string> {
  const entry = join(options.projectDir, options.pyModule, "__main__.py");
  if (!existsSync(entry)) {
    throw new ExecutaError(`entry ${options.pyModule}/__main__.py not found`, { hint: "a Python plugin's entry is <package>/__main__.py" });
  }
  const manifest = join(options.projectDir, "manifest.json");
  // __main__.py uses relative imports, so it runs as its package's __main__, not as a script.
  // Not `<name>.py`: a launcher named like the package would shadow it.
  const launcher = join(options.workDir, "executa_entry.py");
  writeFileSync(launcher, `import runpy\n\nrunpy.run_module(${JSON.stringify(options.pyModule)}, run_name="__main__", alter_sys=True)\n`);
  const result = await exec(
    options.tool.python,
    [
      "-m", "PyInstaller", `--${options.layout}`, "--noconfirm", "--clean", "--log-level", "WARN",
      "--name", options.name,
      "--distpath", options.outDir,
      "--workpath", pyinstallerWorkPath(options.workDir),
      "--specpath", options.workDir,
      "--paths", options.projectDir,
      "--add-data", `${manifest}${process.platform === "win32" ? ";" : ":"}.`,
      "--collect-submodules", options.pyModule,
      launcher,
    ],
    { cwd: options.projectDir, env: { ...process.env, PYTHONHASHSEED: "0", SOURCE_DATE_EPOCH } },
  );
  if (result.code !== 0) {
    throw new ExecutaError(`PyInstaller failed: ${tail(result.stderr, 4).replace(/\n/g, " / ")}`, {
      hint: "run PyInstaller by hand with --log-level DEBUG to see the whole error",
    });
  }
  const exe = options.name + (process.platform === "win32" ? ".exe" : "");
  return options.layout === "onefile" ? join(options.outDir, exe) : join(options.outDir, options.name);
}

/** PyInstaller's work folder (its Analysis table of contents lists what it collected). */
export function pyinstallerWorkPath(workDir: string): string {
  return join(workDir, "pyinstaller");
}
