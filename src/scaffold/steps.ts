/** The steps after the files are written: git and dependency install. Each reports, none throws. */
import { exec, tail, which } from "../common/exec.js";
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
    if (result.code !== 0) {
      const why = result.spawnError
        ? `${command} could not start (${result.spawnError.code})`
        : tail(result.stderr || result.stdout);
      const offline =
        /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network|resolve host|Could not fetch|connection/i.test(why);
      return {
        step,
        status: "failed",
        message: `${[command, ...args].join(" ")} failed${offline ? " (the network looks unreachable)" : ""}: ${why}`,
        manual: plan.manual,
      };
    }
  }
  return { step, status: "done", message: `ran ${plan.manual}` };
}
