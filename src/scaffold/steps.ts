/** The steps after the files are written: git, the lockfile and dependency install. Each reports, none throws. */
import { exec, tail, which, type ExecResult } from "../common/exec.js";
import { installCommand, isYarnClassic, type PackageManager } from "../project/index.js";
import type { Language } from "./spec.js";

export interface StepResult {
  step: string;
  status: "done" | "skipped" | "failed";
  message?: string;
  /** What to run by hand when the step was skipped or failed. */
  manual?: string;
}

export async function gitInit(dir: string, commitMessage: string): Promise<StepResult> {
  const step = "git";
  if (!which("git"))
    return {
      step,
      status: "skipped",
      message: "git is not installed",
      manual: "git init && git add -A && git commit -m 'Scaffold'",
    };
  const inside = await exec("git", ["rev-parse", "--is-inside-work-tree"], { cwd: dir });
  if (inside.code === 0 && inside.stdout.trim() === "true") {
    return { step, status: "skipped", message: "the folder is already inside a git repository" };
  }
  const identity = (await exec("git", ["config", "user.email"], { cwd: dir })).stdout.trim()
    ? []
    : ["-c", "user.name=create-executa", "-c", "user.email=create-executa@users.noreply.invalid"];
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["add", "-A"],
    [...identity, "commit", "-q", "--no-verify", "-m", commitMessage],
  ]) {
    const result = await exec("git", args, { cwd: dir });
    if (result.code !== 0) {
      return {
        step,
        status: "failed",
        message: `git ${args.filter((a) => !a.startsWith("user.")).join(" ")}: ${tail(result.stderr)}`,
        manual: "git init && git add -A && git commit -m 'Scaffold'",
      };
    }
  }
  return { step, status: "done", message: "initialised a git repository with a first commit" };
}

interface InstallPlan {
  commands: [string, ...string[]][];
  manual: string;
  missing?: string;
  env?: NodeJS.ProcessEnv;
}

export interface InstallOptions {
  /** A create-executa tarball or folder to install instead of the registry's (npm only). */
  localToolchain?: string;
  packageManager?: PackageManager;
}

function nodeInstallPlan(pm: PackageManager, localToolchain: string | undefined): InstallPlan {
  const manual = installCommand(pm);
  if (!which(pm.name)) return { commands: [], manual, missing: `${pm.name} is not installed` };
  switch (pm.name) {
    case "npm": {
      // A local toolchain is installed without saving it: package.json keeps the registry range.
      const local = localToolchain ? ["--no-save", localToolchain] : [];
      return {
        commands: [["npm", "install", "--no-audit", "--no-fund", ...local]],
        manual: [manual, ...local].join(" "),
      };
    }
    case "yarn":
      // Yarn 2+ refuses to create a lockfile when it sees CI; a new project has none yet.
      return {
        commands: [["yarn", "install"]],
        manual,
        ...(!isYarnClassic(pm) && { env: { ...process.env, YARN_ENABLE_IMMUTABLE_INSTALLS: "false" } }),
      };
    default:
      return { commands: [[pm.name, "install"]], manual };
  }
}

function installPlan(lang: Language, options: InstallOptions): InstallPlan {
  if (lang === "ts") return nodeInstallPlan(options.packageManager ?? { name: "npm" }, options.localToolchain);
  if (lang === "go") {
    return which("go")
      ? { commands: [["go", "mod", "download"]], manual: "go mod download" }
      : { commands: [], manual: "go mod download", missing: "go is not installed" };
  }
  if (which("uv")) return { commands: [["uv", "sync"]], manual: "uv sync" };
  const python = which("python3") ? "python3" : which("python") ? "python" : undefined;
  const venvPython = process.platform === "win32" ? ".venv\\Scripts\\python" : ".venv/bin/python";
  const manual = `${python ?? "python3"} -m venv .venv && ${venvPython} -m pip install -e . pytest`;
  if (!python) return { commands: [], manual, missing: "neither uv nor python3 is installed" };
  return {
    commands: [
      [python, "-m", "venv", ".venv"],
      [venvPython, "-m", "pip", "install", "-q", "-e", ".", "pytest"],
    ],
    manual,
  };
}

/** The command that adds the `build` extra (PyInstaller, for `executa build`) to a Python project's environment, the way it was installed. */
export function buildExtraCommand(): string {
  if (which("uv")) return "uv sync --extra build";
  const venvPython = process.platform === "win32" ? ".venv\\Scripts\\python" : ".venv/bin/python";
  return `${venvPython} -m pip install -e '.[build]'`;
}

/** Why a command failed, saying so when the network looks unreachable. */
function failure(command: string, args: string[], result: ExecResult): string {
  const why = result.spawnError
    ? `${command} could not start (${result.spawnError.code})`
    : tail(result.stderr || result.stdout);
  const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network|resolve host|Could not fetch|connection/i.test(
    why,
  );
  return `${[command, ...args].join(" ")} failed${offline ? " (the network looks unreachable)" : ""}: ${why}`;
}

export async function installDependencies(
  dir: string,
  lang: Language,
  options: InstallOptions = {},
): Promise<StepResult> {
  const step = "install";
  const plan = installPlan(lang, options);
  if (plan.missing) return { step, status: "skipped", message: plan.missing, manual: plan.manual };
  for (const [command, ...args] of plan.commands) {
    const result = await exec(command, args, { cwd: dir, timeoutMs: 10 * 60_000, ...(plan.env && { env: plan.env }) });
    if (result.code !== 0)
      return { step, status: "failed", message: failure(command, args, result), manual: plan.manual };
  }
  return { step, status: "done", message: `ran ${plan.manual}` };
}

/** The dependency npm's output says the registry does not have (a 404, or no matching version). */
export function unpublishedDependency(npmOutput: string): string | undefined {
  return (
    /No matching version found for (\S+?)\.?$/m.exec(npmOutput)?.[1] ?? /\b404\b.*?'([^'\s]+)'/.exec(npmOutput)?.[1]
  );
}

/**
 * package-lock.json for a TypeScript project whose toolchain is installed from a folder or tarball
 * (`npm install --no-save` writes no lockfile): resolved from the registry alone, before that
 * install, since npm would otherwise record the toolchain as a link into its folder, which CI's
 * `npm ci` does not have.
 */
export async function registryLockfile(dir: string): Promise<StepResult> {
  const step = "lockfile";
  const args = ["install", "--package-lock-only", "--no-audit", "--no-fund"];
  // By hand it comes after the install, whose link would be recorded: the registry's toolchain replaces it.
  const manual = "rm -rf node_modules && npm install";
  if (!which("npm")) return { step, status: "skipped", message: "npm is not installed", manual };
  const result = await exec("npm", args, { cwd: dir, timeoutMs: 10 * 60_000 });
  if (result.code === 0)
    return { step, status: "done", message: "package-lock.json from the registry, for CI's npm ci" };
  const unpublished = unpublishedDependency(`${result.stderr}\n${result.stdout}`);
  if (unpublished) {
    return {
      step,
      status: "skipped",
      message: `the registry has no ${unpublished} yet, so no package-lock.json, which CI's npm ci needs: write it once the registry has it`,
      manual,
    };
  }
  return { step, status: "failed", message: failure("npm", args, result), manual };
}
