/** create: answers -> template context -> rendered files -> written project -> post-steps. */
import { join, resolve } from "node:path";
import { PACKAGE_ROOT, PACKAGE_VERSION, TEMPLATES_DIR } from "../common/package-info.js";
import { withSpinner, type StepOutcome } from "../common/term.js";
import { formatDiagnostic } from "../protocol/index.js";
import { generateManifest, writeOutputs } from "../manifest/index.js";
import { renderTemplate } from "./render.js";
import type { ProjectSpec } from "./spec.js";
import { gitInit, installDependencies, type StepResult } from "./steps.js";
import { checkTarget, writeProject } from "./write.js";

export * from "./spec.js";
export type { StepResult } from "./steps.js";

export interface ScaffoldOptions {
  targetDir: string;
  spec: ProjectSpec;
  /** The npm spec of create-executa the project depends on; defaults to this version. */
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

/** This version from the registry; or, when running from a source checkout, that checkout. */
function defaultToolchainSpec(): string {
  return PACKAGE_ROOT.split(/[\\/]/).includes("node_modules") ? `^${PACKAGE_VERSION}` : `file:${PACKAGE_ROOT}`;
}

/** The npx package argument for a toolchain spec: a range or tag names the package, a path or URL stands alone. */
export function toolchainPackage(toolchainSpec: string): string {
  return /^(?:file:|https?:|git\+|\.|\/)/.test(toolchainSpec) ? toolchainSpec : `create-executa@${toolchainSpec}`;
}

/** How a project of this language calls the toolchain. */
export function toolchainCommand(spec: ProjectSpec, toolchainSpec: string): string {
  return spec.lang === "ts" ? "npx executa" : `npx --yes --package=${toolchainPackage(toolchainSpec)} executa`;
}

function nextSteps(dir: string, spec: ProjectSpec, toolchainSpec: string): string[] {
  const executa = toolchainCommand(spec, toolchainSpec.startsWith("file:") ? PACKAGE_VERSION : toolchainSpec);
  const test = { ts: "npm test", python: "python3 -m pytest", go: "go test ./..." }[spec.lang];
  return [`cd ${dir}`, test, `${executa} dev`, `${executa} test`, `${executa} build`];
}

export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const { spec } = options;
  const dir = resolve(options.targetDir);
  const toolchainSpec = options.toolchainSpec ?? defaultToolchainSpec();
  const files = await renderTemplate(join(TEMPLATES_DIR, spec.lang), { ...spec, toolchainSpec, year: new Date().getFullYear() });
  await checkTarget(dir, files, options.force ?? false);
  const result: ScaffoldResult = {
    status: options.dryRun ? "dry-run" : "created",
    dir,
    lang: spec.lang,
    name: spec.name,
    toolId: spec.toolId,
    files: files.map((f) => f.path),
    steps: [],
    next: nextSteps(options.targetDir, spec, toolchainSpec),
  };
  if (options.dryRun) return result;

  const quiet = options.quiet ?? false;
  await withSpinner(`write ${files.length} files into ${dir}`, () => writeProject(dir, files), { quiet });
  const step = (label: string, work: () => Promise<StepResult>) => withSpinner(label, work, { quiet, outcome: stepOutcome });
  result.steps.push(await step("generate manifest.json", async () => generateStep(dir, spec, toolchainSpec)));
  result.files.push(...(result.steps[0]?.status === "done" ? generatedPaths(spec) : []));
  result.files.sort();
  if (options.install ?? true) result.steps.push(await step("install dependencies", () => installDependencies(dir, spec.lang)));
  else result.steps.push({ step: "install", status: "skipped", message: "--no-install" });
  if (options.git ?? true) result.steps.push(await step("git init", () => gitInit(dir, `Scaffold ${spec.name} with create-executa ${PACKAGE_VERSION}`)));
  else result.steps.push({ step: "git", status: "skipped", message: "--no-git" });
  return result;
}

function stepOutcome(step: StepResult): StepOutcome {
  return step.status === "done" ? { status: "ok" } : { status: step.status, ...(step.message && { note: step.message }) };
}

function generatedPaths(spec: ProjectSpec): string[] {
  const bindings = { ts: "src/executa.bindings.ts", python: `${spec.pyModule}/executa_bindings.py`, go: "executa_bindings.go" }[spec.lang];
  return ["manifest.json", bindings];
}

async function generateStep(dir: string, spec: ProjectSpec, toolchainSpec: string): Promise<StepResult> {
  const manual = `${toolchainCommand(spec, toolchainSpec)} manifest`;
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
