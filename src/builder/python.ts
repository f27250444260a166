/** Python plugins: PyInstaller one-file for the host only, manifest.json shipped as data. */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec, tail, which } from "../common/exec.js";
import type { PlatformKey } from "../protocol/index.js";

export function pythonCommand(): string {
  for (const candidate of process.platform === "win32" ? ["python", "py"] : ["python3", "python"]) {
    if (which(candidate)) return candidate;
  }
  throw new ExecutaError("python is not installed, so a Python plugin cannot be built", { hint: "install Python 3.10 or newer" });
}

/** PyInstaller's version, or an error that says how to add it. */
export async function pyinstallerVersion(python: string, projectDir: string): Promise<string> {
  const result = await exec(python, ["-m", "PyInstaller", "--version"], { cwd: projectDir });
  if (result.code !== 0) {
    throw new ExecutaError("PyInstaller is not installed for " + python, {
      hint: "run the build as `uv run --with pyinstaller executa build`, or install the project's build extra (`pip install -e '.[build]'`)",
    });
  }
  return result.stdout.trim();
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

/** Builds `<pyModule>/__main__.py` into one file at `outDir/<name>[.exe]`. */
export async function pyinstallerBuild(options: {
  python: string;
  projectDir: string;
  pyModule: string;
  name: string;
  workDir: string;
  outDir: string;
}): Promise<string> {
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
    options.python,
    [
      "-m", "PyInstaller", "--onefile", "--noconfirm", "--clean", "--log-level", "WARN",
      "--name", options.name,
      "--distpath", options.outDir,
      "--workpath", join(options.workDir, "pyinstaller"),
      "--specpath", options.workDir,
      "--paths", options.projectDir,
      "--add-data", `${manifest}${process.platform === "win32" ? ";" : ":"}.`,
      "--collect-submodules", options.pyModule,
      launcher,
    ],
    { cwd: options.projectDir, env: { ...process.env, PYTHONHASHSEED: "0", SOURCE_DATE_EPOCH: "499162500" } },
  );
  if (result.code !== 0) {
    throw new ExecutaError(`PyInstaller failed: ${tail(result.stderr, 4).replace(/\n/g, " / ")}`, {
      hint: "run PyInstaller by hand with --log-level DEBUG to see the whole error",
    });
  }
  return join(options.outDir, options.name + (process.platform === "win32" ? ".exe" : ""));
}

