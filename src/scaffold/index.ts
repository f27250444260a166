/** create: answers -> template context -> rendered files -> written project -> post-steps. */
import { join, relative, resolve } from "node:path";
import { PACKAGE_ROOT, PACKAGE_VERSION, TEMPLATES_DIR } from "../common/package-info.js";
import { withSpinner, type StepOutcome } from "../common/term.js";
import { RUNTIME_VERSION } from "../protocol/index.js";
import { regenerateManifest } from "../manifest/index.js";
import { ExecutaError } from "../common/errors.js";
import {
  bindingsPath,
  installCommand,
  LANGUAGES,
  languagePath,
  LOCKFILES,
  MANIFEST_PATH,
  runScript,
  type PackageManager,
} from "../project/index.js";
import { workflowMatrix } from "../builder/targets/index.js";
import { packageManagerContext } from "./package-manager.js";
import { readVariant, renderProject, type RenderedFile } from "./render.js";
import type { ProjectSpec } from "./spec.js";
import { fromSourceCheckout, TOOLCHAIN_SPEC } from "./executa-command.js";
import { buildExtraCommand, gitInit, installDependencies, registryLockfile, type StepResult } from "./steps.js";
import { RECORD_FILE, recordOf, recordText } from "./upgrade/record.js";
import { checkTarget, writeProject } from "./write.js";

export * from "./spec.js";
export type { StepResult } from "./steps.js";

export interface ScaffoldOptions {
  targetDir: string;
  spec: ProjectSpec;
  /**
   * A create-executa to install into a TypeScript project instead of the registry's (a tarball or
   * folder; default: this source checkout when running from one). Never written into a file.
   */
  toolchainSpec?: string;
  force?: boolean;
  dryRun?: boolean;
  install?: boolean;
  git?: boolean;
  /** No progress lines (for --json). */
  quiet?: boolean;
  /**
   * The package manager the install step, the TypeScript scripts and workflow, the READMEs and the
   * next steps use (default npm; the CLI passes --package-manager or the one that ran it).
   */
  packageManager?: PackageManager;
}

export interface ScaffoldResult {
  status: "created" | "dry-run";
  dir: string;
  lang: ProjectSpec["lang"];
  template: ProjectSpec["template"];
  packageManager: PackageManager["name"];
  name: string;
  toolId: string;
  /** Project-relative paths, the generated manifest and bindings included. */
  files: string[];
  steps: StepResult[];
  next: string[];
}

export { TOOLCHAIN_SPEC } from "./executa-command.js";

/** The toolchain to install instead of the registry's: --toolchain, or this source checkout. */
function localToolchain(option: string | undefined): string | undefined {
  if (option) return option;
  return fromSourceCheckout() ? PACKAGE_ROOT : undefined;
}

/** How the user runs the toolchain from inside the new project `dir` (printed, never written into a file). */
export function toolchainCommand(
  spec: ProjectSpec,
  local: string | undefined,
  pm: PackageManager = { name: "npm" },
  dir = process.cwd(),
): string {
  const context = packageManagerContext(pm, TOOLCHAIN_SPEC);
  if (spec.lang === "ts") return context.executa;
  if (local === PACKAGE_ROOT) return `node ${relative(dir, join(PACKAGE_ROOT, "bin", "executa.js"))}`;
  return local ? `npx --yes --package=${local} executa` : context.dlxExecuta;
}

function nextSteps(dir: string, spec: ProjectSpec, executa: string, pm: PackageManager, installed: boolean): string[] {
  const test = {
    ts: runScript(pm, "test"),
    python: installed ? ".venv/bin/python -m pytest" : "python3 -m pytest",
    go: "go test ./...",
  }[spec.lang];
  // A Python build needs PyInstaller, which only the project's `build` extra installs.
  const build = spec.lang === "python" ? [buildExtraCommand(), `${executa} build`] : [`${executa} build`];
  // A TypeScript project runs nothing before its install, which also writes the lockfile CI installs from.
  const install = spec.lang === "ts" && !installed ? [installCommand(pm)] : [];
  return [`cd ${dir}`, ...install, test, `${executa} dev`, `${executa} test`, ...build];
}

export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const { spec } = options;
  const pm = options.packageManager ?? { name: "npm" };
  const dir = resolve(options.targetDir);
  if (options.toolchainSpec && pm.name !== "npm" && spec.lang === "ts") {
    throw new ExecutaError(`--toolchain installs with npm (npm install --no-save), not ${pm.name}`, {
      hint: `pass --package-manager npm, or publish the toolchain to the registry ${pm.name} reads and leave --toolchain out`,
    });
  }
  // Only npm can install a toolchain from a tarball or folder without naming it in package.json.
  const local = pm.name === "npm" || spec.lang !== "ts" ? localToolchain(options.toolchainSpec) : undefined;
  const executa = toolchainCommand(spec, local, pm, dir);
  const pmContext = packageManagerContext(pm, TOOLCHAIN_SPEC);
  const variant = await readVariant(TEMPLATES_DIR, spec.template);
  const context = {
    ...spec,
    toolchainSpec: TOOLCHAIN_SPEC,
    year: new Date().getFullYear(),
    buildMatrix: workflowMatrix(spec.lang),
    pm: pmContext,
    variant,
  };
  const rendered = await renderProject(join(TEMPLATES_DIR, spec.lang), spec.template, context);
  const files = withRuntimeRecord(
    spec,
    rendered.filter((f) => f.path !== ".yarnrc.yml" || pmContext.yarnBerry),
  );
  await checkTarget(
    dir,
    [
      ...files.map((f) => f.path),
      ...generatedPaths(spec),
      ...((options.install ?? true) ? installOutputs(spec.lang, pm) : []),
    ],
    options.force ?? false,
  );
  const result: ScaffoldResult = {
    status: options.dryRun ? "dry-run" : "created",
    dir,
    lang: spec.lang,
    template: spec.template,
    packageManager: pm.name,
    name: spec.name,
    toolId: spec.toolId,
    files: files.map((f) => f.path),
    steps: [],
    next: nextSteps(options.targetDir, spec, executa, pm, options.install ?? true),
  };
  if (options.dryRun) return result;

  const quiet = options.quiet ?? false;
  await withSpinner(`write ${files.length} files into ${dir}`, () => writeProject(dir, files), { quiet });
  const step = (label: string, work: () => Promise<StepResult>) =>
    withSpinner(label, work, { quiet, outcome: stepOutcome });
  result.steps.push(await step("generate manifest.json", async () => generateStep(dir, `${executa} manifest`)));
  result.files.push(...(result.steps[0]?.status === "done" ? generatedPaths(spec) : []));
  result.files.sort();
  if ((options.install ?? true) && local && spec.lang === "ts")
    result.steps.push(await step("write package-lock.json from the registry", () => registryLockfile(dir)));
  if (options.install ?? true)
    result.steps.push(
      await step("install dependencies", () =>
        installDependencies(dir, spec.lang, { localToolchain: local, packageManager: pm }),
      ),
    );
  else result.steps.push({ step: "install", status: "skipped", message: "--no-install" });
  if (options.git ?? true)
    result.steps.push(
      await step("git init", () => gitInit(dir, `Scaffold ${spec.name} with create-executa ${PACKAGE_VERSION}`)),
    );
  else result.steps.push({ step: "git", status: "skipped", message: "--no-git" });
  return result;
}

/** The project's files plus the record of the runtime among them (what `executa upgrade` reads). */
function withRuntimeRecord(spec: ProjectSpec, files: RenderedFile[]): RenderedFile[] {
  const prefix = `${languagePath(LANGUAGES[spec.lang].runtimeDir, spec.pyModule)}/`;
  const runtime = new Map(
    files.filter((f) => f.path.startsWith(prefix)).map((f) => [f.path.slice(prefix.length), f.content]),
  );
  const record = {
    path: prefix + RECORD_FILE,
    content: Buffer.from(recordText(recordOf(RUNTIME_VERSION, runtime))),
    mode: 0o644,
  };
  return [...files, record].sort((a, b) => (a.path < b.path ? -1 : 1));
}

function stepOutcome(step: StepResult): StepOutcome {
  return step.status === "done"
    ? { status: "ok" }
    : { status: step.status, ...(step.message && { note: step.message }) };
}

/** What `executa manifest` writes into a new project. */
function generatedPaths(spec: ProjectSpec): string[] {
  return [MANIFEST_PATH, bindingsPath(spec.lang, spec.pyModule)];
}

/** What the install step writes (or would change) in the project folder. */
function installOutputs(lang: ProjectSpec["lang"], pm: PackageManager): readonly string[] {
  if (lang === "ts")
    return ["node_modules", ...LOCKFILES[pm.name], ...(pm.name === "yarn" ? [".yarn", ".pnp.cjs"] : [])];
  return lang === "python" ? [".venv", "uv.lock"] : ["go.sum"];
}

async function generateStep(dir: string, manual: string): Promise<StepResult> {
  const regenerated = await regenerateManifest(dir);
  if (!regenerated.ok) return { step: "manifest", status: "failed", message: regenerated.message, manual };
  return { step: "manifest", status: "done", message: `${regenerated.tools} tools` };
}
export { adoptPlugin, type InitResult } from "./init/index.js";
export { addTool, parseParam, TOOL_NAME, type AddToolResult } from "./add-tool/index.js";
