/**
 * A Python build packs the interpreter that runs PyInstaller, so the project's dependencies must
 * be installed there: checked before PyInstaller runs (pyproject's `dependencies`) and after
 * (every module the plugin's own code imports was found).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec } from "../common/exec.js";
import { projectVenv, readPyProject } from "../project/index.js";

/** Prints the requirements (JSON list in argv[1]) that the interpreter does not satisfy, as JSON. */
const UNSATISFIED = String.raw`
import json, re, sys
from importlib import metadata
try:
    from packaging.requirements import Requirement
except ImportError:
    try:
        from pip._vendor.packaging.requirements import Requirement
    except ImportError:
        Requirement = None
out = []
for text in json.loads(sys.argv[1]):
    name, spec = re.match(r"\s*([A-Za-z0-9._-]+)", text).group(1), None
    if Requirement is not None:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate():
            continue
        name, spec = req.name, req.specifier
    try:
        version = metadata.version(name)
    except metadata.PackageNotFoundError:
        out.append(text + " (not installed)")
        continue
    if spec is not None and not spec.contains(version, prereleases=True):
        out.append(text + " (installed: " + version + ")")
print(json.dumps(out))
`;

const quote = (s: string) => (/^[\w./:=@-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, "\\$1")}"`);

/** A project whose .venv uv made and keeps (it has no pip): `uv sync` installs into it. */
export const isUvManaged = (projectDir: string): boolean =>
  projectVenv(projectDir) !== undefined && existsSync(join(projectDir, "uv.lock"));

/** The command that installs the project and its dependencies into `python`'s environment. */
export function installCommand(projectDir: string, python: string): string {
  if (isUvManaged(projectDir)) return "uv sync --extra build";
  return `${quote(python)} -m pip install -e .`;
}

/** Refuses the build when pyproject.toml's dependencies are not installed for `python`, with the command that installs them. */
export async function checkDeclaredDependencies(projectDir: string, python: string): Promise<void> {
  const wanted = readPyProject(join(projectDir, "pyproject.toml"))?.dependencies ?? [];
  if (wanted.length === 0) return;
  const result = await exec(python, ["-c", UNSATISFIED, JSON.stringify(wanted)], { cwd: projectDir });
  if (result.code !== 0)
    throw new ExecutaError(
      `could not check the project's dependencies with ${python}: ${result.stderr.trim().split("\n").at(-1)}`,
    );
  const missing = JSON.parse(result.stdout) as string[];
  if (missing.length === 0) return;
  throw new ExecutaError(
    `pyproject.toml's dependencies are not installed for ${python}, which PyInstaller packs: ${missing.join(", ")}`,
    {
      hint: `install the project and its dependencies there, then build again: \`${installCommand(projectDir, python)}\``,
    },
  );
}

/** `missing module named X - imported by a (top-level), b (delayed)` lines of PyInstaller's warn file. */
const MISSING_LINE = /^missing module named (\S+) - imported by (.*)$/;

/**
 * Modules the plugin's own code imports unconditionally (at the top or inside a function) that
 * PyInstaller could not find, from its warn file; `own` says which importing modules are the plugin's.
 */
export function missingImports(warnText: string, own: (module: string) => boolean): string[] {
  const found: string[] = [];
  for (const line of warnText.split("\n")) {
    const m = MISSING_LINE.exec(line.trim());
    if (!m) continue;
    const importers = m[2]!
      .split(/,\s*/)
      .map((part) => /^(\S+) \(([^)]*)\)$/.exec(part))
      .filter((x): x is RegExpExecArray => x !== null);
    const byPlugin = importers.filter(
      ([, module, how]) => own(module!) && /top-level|delayed/.test(how!) && !/conditional|optional/.test(how!),
    );
    if (byPlugin.length)
      found.push(`${m[1]!.replace(/^'|'$/g, "")} (imported by ${byPlugin.map(([, module]) => module).join(", ")})`);
  }
  return found;
}

/** Fails the build when the plugin's code imports a module PyInstaller did not find. */
export function checkFrozenImports(
  warnFile: string,
  ownPackages: readonly string[],
  projectDir: string,
  python: string,
): void {
  if (!existsSync(warnFile)) return;
  const own = (module: string) => ownPackages.some((p) => module === p || module.startsWith(`${p}.`));
  const missing = missingImports(readFileSync(warnFile, "utf8"), own);
  if (missing.length === 0) return;
  throw new ExecutaError(
    `the plugin imports modules that are not installed for ${python}, so the binary could not run them: ${missing.join("; ")}`,
    {
      hint: `declare them in pyproject.toml's dependencies and install the project into that interpreter: \`${installCommand(projectDir, python)}\``,
    },
  );
}
