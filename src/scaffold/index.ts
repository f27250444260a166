/** create: answers -> template context -> rendered files -> written project -> post-steps. */
import { join, relative, resolve } from "node:path";
import { PACKAGE_ROOT, PACKAGE_VERSION, TEMPLATES_DIR } from "../common/package-info.js";
import { withSpinner, type StepOutcome } from "../common/term.js";
import { formatDiagnostic } from "../protocol/index.js";
import { generateManifest, MANIFEST_PATH, writeOutputs } from "../manifest/index.js";
import { LANGUAGES, languagePath } from "../project/index.js";
import { workflowMatrix } from "../builder/targets/index.js";
import { renderTemplate } from "./render.js";
import type { ProjectSpec } from "./spec.js";
import { gitInit, installDependencies, type StepResult } from "./steps.js";
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
}

export interface ScaffoldResult {
  status: "created" | "dry-run";
  dir: string;
  lang: ProjectSpec["lang"];
  name: string;
  toolId: string;
  /** Project-relative paths, the generated manifest and bindings included. */
  files: string[];
  steps: StepResult[];
  next: string[];
}

/** What every generated file names: this version's range on the registry (never a path of this machine). */
export const TOOLCHAIN_SPEC = `^${PACKAGE_VERSION}`;

/** The toolchain to install instead of the registry's: --toolchain, or this source checkout. */
function localToolchain(option: string | undefined): string | undefined {
  if (option) return option;
  return PACKAGE_ROOT.split(/[\\/]/).includes("node_modules") ? undefined : PACKAGE_ROOT;
}

/** How the user runs the toolchain in the new project (printed, never written into a file). */
export function toolchainCommand(spec: ProjectSpec, local: string | undefined): string {
  if (spec.lang === "ts") return "npx executa";
  if (local === PACKAGE_ROOT) return `node ${relative(process.cwd(), join(PACKAGE_ROOT, "bin", "executa.js"))}`;
  return `npx --yes --package=${local ?? `create-executa@${TOOLCHAIN_SPEC}`} executa`;
}

function nextSteps(dir: string, spec: ProjectSpec, executa: string): string[] {
  const test = { ts: "npm test", python: ".venv/bin/python -m pytest", go: "go test ./..." }[spec.lang];
  return [`cd ${dir}`, test, `${executa} dev`, `${executa} test`, `${executa} build`];
}

export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const { spec } = options;
  const dir = resolve(options.targetDir);
  const local = localToolchain(options.toolchainSpec);
  const executa = toolchainCommand(spec, local);
  const files = await renderTemplate(join(TEMPLATES_DIR, spec.lang), { ...spec, toolchainSpec: TOOLCHAIN_SPEC, year: new Date().getFullYear(), buildMatrix: workflowMatrix(spec.lang) });
  await checkTarget(dir, [...files.map((f) => f.path), ...generatedPaths(spec), ...(options.install ?? true ? INSTALL_OUTPUTS[spec.lang] : [])], options.force ?? false);
  const result: ScaffoldResult = {
    status: options.dryRun ? "dry-run" : "created",
    dir,
    lang: spec.lang,
    name: spec.name,
    toolId: spec.toolId,
    files: files.map((f) => f.path),
    steps: [],
    next: nextSteps(options.targetDir, spec, executa),
  };
  if (options.dryRun) return result;

  const quiet = options.quiet ?? false;
  await withSpinner(`write ${files.length} files into ${dir}`, () => writeProject(dir, files), { quiet });
  const step = (label: string, work: () => Promise<StepResult>) => withSpinner(label, work, { quiet, outcome: stepOutcome });
  result.steps.push(await step("generate manifest.json", async () => generateStep(dir, `${executa} manifest`)));
  result.files.push(...(result.steps[0]?.status === "done" ? generatedPaths(spec) : []));
  result.files.sort();
  if (options.install ?? true) result.steps.push(await step("install dependencies", () => installDependencies(dir, spec.lang, local)));
  else result.steps.push({ step: "install", status: "skipped", message: "--no-install" });
  if (options.git ?? true) result.steps.push(await step("git init", () => gitInit(dir, `Scaffold ${spec.name} with create-executa ${PACKAGE_VERSION}`)));
  else result.steps.push({ step: "git", status: "skipped", message: "--no-git" });
  return result;
}

function stepOutcome(step: StepResult): StepOutcome {
  return step.status === "done" ? { status: "ok" } : { status: step.status, ...(step.message && { note: step.message }) };
}

/** What `executa manifest` writes into a new project. */
function generatedPaths(spec: ProjectSpec): string[] {
  return [MANIFEST_PATH, languagePath(LANGUAGES[spec.lang].bindingsPath, spec.pyModule)];
}

/** What the install step writes (or would change) in the project folder. */
const INSTALL_OUTPUTS: Record<ProjectSpec["lang"], string[]> = {
  ts: ["node_modules", "package-lock.json"],
  python: [".venv", "uv.lock"],
  go: ["go.sum"],
};

async function generateStep(dir: string, manual: string): Promise<StepResult> {
  try {
    const generated = await generateManifest(dir);
    const errors = generated.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) return { step: "manifest", status: "failed", message: errors.map(formatDiagnostic).join("; "), manual };
    await writeOutputs(dir, generated.outputs);
    return { step: "manifest", status: "done", message: `${generated.manifest.tools.length} tools` };
  } catch (error) {
    return { step: "manifest", status: "failed", message: (error as Error).message, manual };
  }
}
export { adoptPlugin, WORKFLOW_PATH, type Chooser, type InitFile, type InitOptions, type InitResult } from "./init/index.js";
