/**
 * Python plugins: PyInstaller for the host only, with the project's virtual environment when it
 * has one, manifest.json shipped as data. Two layouts: one folder (the default: nothing to unpack
 * at start-up) or one file (unpacks itself into a temp folder on every start).
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec, tail } from "../common/exec.js";
import { MANIFEST_PATH, projectVenv, requirePython, type PythonEntry } from "../project/index.js";
import type { PlatformKey } from "../protocol/index.js";
import { checkFrozenImports, isUvManaged } from "./python-deps.js";
import { writeDeferredHooks } from "./python-hooks.js";
import { toolchainVersion } from "./targets/index.js";

export type PythonLayout = "onedir" | "onefile";

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
  const result = await exec(
    python,
    ["-c", "import platform, PyInstaller; print(PyInstaller.__version__); print(platform.python_version())"],
    { cwd: projectDir },
  );
  if (result.code !== 0) {
    const hint = isUvManaged(projectDir)
      ? "install the project's build extra into its virtual environment: `uv sync --extra build`"
      : projectVenv(projectDir)
        ? `install it into the project's virtual environment: \`${python} -m pip install "pyinstaller==${toolchainVersion("pyinstaller")}"\``
        : "run the build as `uv run --with pyinstaller executa build`, or install the project's build extra (`pip install -e '.[build]'`)";
    throw new ExecutaError(`PyInstaller is not installed for ${python}`, { hint });
  }
  const [pyinstallerVersion = "", pythonVersion = ""] = result.stdout
    .trim()
    .split("\n")
    .map((l) => l.trim());
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
  /** What starts the plugin: a generated project's package, or executa.json's entry. */
  entry: PythonEntry;
  name: string;
  layout: PythonLayout;
  workDir: string;
  outDir: string;
}

/** The script PyInstaller starts from, and the package whose modules it must collect (imported by name only). */
function launcherOf(options: PyInstallerOptions): { script: string; collect?: string } {
  const { entry, projectDir, workDir } = options;
  if (entry.kind === "script") {
    const script = join(projectDir, entry.file);
    if (!existsSync(script))
      throw new ExecutaError(`entry ${entry.file} not found`, {
        hint: 'set executa.json "entry" to the plugin\'s script',
      });
    return { script };
  }
  // Not `<name>.py`: a launcher named like the package would shadow it.
  const launcher = join(workDir, "executa_entry.py");
  if (entry.kind === "function") {
    writeFileSync(
      launcher,
      `import sys\n\nfrom ${entry.module} import ${entry.func.split(".")[0]}\n\nsys.exit(${entry.func}())\n`,
    );
    return { script: launcher, collect: entry.module.split(".")[0]! };
  }
  if (!existsSync(join(projectDir, entry.name.split(".").join("/"), "__main__.py"))) {
    throw new ExecutaError(`entry ${entry.name}/__main__.py not found`, {
      hint: "a Python plugin's entry is <package>/__main__.py",
    });
  }
  // __main__.py uses relative imports, so it runs as its package's __main__, not as a script.
  writeFileSync(
    launcher,
    `import runpy\n\nrunpy.run_module(${JSON.stringify(entry.name)}, run_name="__main__", alter_sys=True)\n`,
  );
  return { script: launcher, collect: entry.name.split(".")[0]! };
}

/**
 * Builds the plugin's entry (a generated project's `<package>/__main__.py`). Returns the output:
 * the executable (onefile), or the folder holding the executable and its `_internal/` (onedir).
 */
export async function pyinstallerBuild(options: PyInstallerOptions): Promise<string> {
  const manifest = join(options.projectDir, MANIFEST_PATH);
  const { script, collect } = launcherOf(options);
  const hooks = await writeDeferredHooks(options.tool.python, options.workDir);
  const result = await exec(
    options.tool.python,
    [
      "-m",
      "PyInstaller",
      `--${options.layout}`,
      "--noconfirm",
      "--clean",
      "--log-level",
      "WARN",
      "--name",
      options.name,
      "--distpath",
      options.outDir,
      "--workpath",
      pyinstallerWorkPath(options.workDir),
      "--specpath",
      options.workDir,
      "--paths",
      options.projectDir,
      "--add-data",
      `${manifest}${process.platform === "win32" ? ";" : ":"}.`,
      ...(collect ? ["--collect-submodules", collect] : []),
      "--additional-hooks-dir",
      hooks,
      script,
    ],
    { cwd: options.projectDir, env: { ...process.env, PYTHONHASHSEED: "0", SOURCE_DATE_EPOCH } },
  );
  if (result.code !== 0) {
    throw new ExecutaError(`PyInstaller failed: ${tail(result.stderr, 4).replace(/\n/g, " / ")}`, {
      hint: "run PyInstaller by hand with --log-level DEBUG to see the whole error",
    });
  }
  const warnFile = join(pyinstallerWorkPath(options.workDir), options.name, `warn-${options.name}.txt`);
  checkFrozenImports(warnFile, projectModules(options.projectDir), options.projectDir, options.tool.python);
  const exe = options.name + (process.platform === "win32" ? ".exe" : "");
  return options.layout === "onefile" ? join(options.outDir, exe) : join(options.outDir, options.name);
}

/** The top-level modules the project's own folder holds (its packages and scripts), and the script PyInstaller starts. */
function projectModules(projectDir: string): string[] {
  const names = readdirSync(projectDir, { withFileTypes: true }).flatMap((e) => {
    if (e.isFile() && e.name.endsWith(".py")) return [e.name.slice(0, -3)];
    if (e.isDirectory() && existsSync(join(projectDir, e.name, "__init__.py"))) return [e.name];
    return [];
  });
  return ["__main__", ...names];
}

/** PyInstaller's work folder (its Analysis table of contents lists what it collected). */
export function pyinstallerWorkPath(workDir: string): string {
  return join(workDir, "pyinstaller");
}
