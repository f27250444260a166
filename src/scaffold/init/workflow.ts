/**
 * `executa init --ci`: the language's own generated workflow (its build matrix, the attested
 * release), rendered from the template and adapted to a plugin create-executa did not generate:
 * no unit-test job (we do not know its tests), the toolchain through npx, the install steps its
 * files allow. A binary gets the native-runner shape of the Python workflow without Python.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isMap, isScalar, isSeq, parseDocument, type Document, type YAMLMap } from "yaml";
import { TEMPLATES_DIR } from "../../common/package-info.js";
import { NATIVE_RUNNERS, workflowMatrix, CROSS_RUNNER } from "../../builder/targets/index.js";
import { languageOfType, type ExecutaType } from "../../project/index.js";
import type { PlatformKey } from "../../protocol/index.js";
import { packageManagerContext } from "../package-manager.js";
import { renderTemplateFile } from "../render.js";

export const WORKFLOW_PATH = ".github/workflows/ci.yml";

export interface WorkflowFacts {
  type: ExecutaType;
  toolId: string;
  /** The create-executa range the workflow runs (`^<this version>`). */
  toolchainSpec: string;
  /** A binary plugin: the platform its executable is for. */
  platform?: PlatformKey;
}

const NPX = 'npx --yes --package="create-executa@$EXECUTA_PACKAGE" executa';

const HEADER = [
  " Written by `executa init` for a plugin create-executa did not generate: conformance, the",
  " manifest check against the running plugin's describe, the build matrix and the attested release.",
  " Add a job for the plugin's own tests, and any install step it needs before it starts.",
].join("\n");

type Step = YAMLMap<string, unknown>;

function jobsOf(doc: Document): YAMLMap<string, YAMLMap<string, unknown>> {
  const jobs = doc.get("jobs");
  if (!isMap(jobs)) throw new Error("the workflow template has no jobs");
  return jobs as YAMLMap<string, YAMLMap<string, unknown>>;
}

/** Rewrites each step of every job: `undefined` drops it. */
function eachStep(doc: Document, edit: (step: Step) => Step | undefined): void {
  for (const job of jobsOf(doc).items) {
    const steps = isMap(job.value) ? job.value.get("steps") : undefined;
    if (!isSeq(steps)) continue;
    steps.items = steps.items.flatMap((item) =>
      isMap(item) ? [edit(item as Step)].filter((s): s is Step => s !== undefined) : [item],
    );
  }
}

const uses = (step: Step, action: string) => String(step.get("uses") ?? "").startsWith(`${action}@`);

/** The step edits each kind of plugin needs. */
function adaptSteps(doc: Document, dir: string, type: ExecutaType): void {
  const hasPackageJson = existsSync(join(dir, "package.json"));
  const lockfile = existsSync(join(dir, "package-lock.json"));
  const pyproject = existsSync(join(dir, "pyproject.toml"));
  const requirements = existsSync(join(dir, "requirements.txt"));
  eachStep(doc, (step) => {
    const run = String(step.get("run") ?? "");
    if (run === "npm ci")
      return hasPackageJson ? (step.set("run", lockfile ? "npm ci" : "npm install"), step) : undefined;
    if (run === "npm run compile") return undefined;
    if (/executa upgrade --check$/.test(run)) return undefined; // no vendored runtime to keep current
    if (run.startsWith("npx executa ")) step.set("run", run.replace("npx executa", NPX));
    if (/executa manifest --check$/.test(String(step.get("run"))))
      step.commentBefore = " Fails when manifest.json differs from what the running plugin's describe answers.";
    if (uses(step, "actions/setup-node")) {
      const options = step.get("with");
      if (isMap(options) && !lockfile) options.delete("cache");
    }
    if (/pip install \. /.test(run) && !pyproject) {
      // No pyproject.toml to install the plugin from: its requirements file, else PyInstaller alone.
      step.set("run", run.replace("install . ", requirements ? "install -r requirements.txt " : "install "));
    }
    if (type === "binary" && (uses(step, "actions/setup-python") || /pip install/.test(run))) return undefined;
    return step;
  });
}

/**
 * yaml reads a comment after an empty value (`pull_request:` then `# ...` then `permissions:`) as
 * that value's comment; it belongs before the next top-level key, where the template has it.
 */
function liftTrailingComments(doc: Document): void {
  const top = doc.contents;
  if (!isMap(top)) return;
  top.items.forEach((pair, i) => {
    let last: unknown = pair.value;
    while (isMap(last) && last.items.length) last = last.items.at(-1)!.value;
    const next = top.items[i + 1]?.key;
    if (isScalar(last) && last.value === null && last.comment && isScalar(next)) {
      next.commentBefore = last.comment;
      next.spaceBefore = true;
      last.comment = undefined;
      last.spaceBefore = false;
    }
  });
}

/** The workflow for the adopted plugin, as YAML text that actionlint accepts. */
export async function adoptedWorkflow(dir: string, facts: WorkflowFacts): Promise<string> {
  const language = facts.type === "binary" ? "python" : languageOfType(facts.type)!;
  const runner = facts.platform ? (NATIVE_RUNNERS[facts.platform] ?? CROSS_RUNNER) : undefined;
  const buildMatrix = facts.type === "binary" ? [{ target: facts.platform!, os: runner! }] : workflowMatrix(language);
  // npm's steps: the edits below adapt them (the toolchain runs through npx, npm ci only with a lock file).
  const pm = packageManagerContext({ name: "npm" }, facts.toolchainSpec);
  const text = await renderTemplateFile(join(TEMPLATES_DIR, language, WORKFLOW_PATH + ".hbs"), {
    toolId: facts.toolId,
    toolchainSpec: facts.toolchainSpec,
    buildMatrix,
    pm,
  });
  const doc = parseDocument(text);
  liftTrailingComments(doc);
  const jobs = jobsOf(doc);
  jobs.delete("test");
  const first = jobs.items[0]?.key;
  if (isScalar(first)) first.spaceBefore = false;
  const needs = jobs.get("build")?.get("needs");
  if (isSeq(needs)) needs.items = needs.items.filter((n) => String((n as { value?: unknown }).value ?? n) !== "test");
  const env = doc.get("env");
  if (isMap(env) && !env.has("EXECUTA_PACKAGE")) {
    const key = doc.createNode("EXECUTA_PACKAGE");
    key.commentBefore =
      " The toolchain (executa manifest / test / build) is the create-executa package, run through npx.";
    env.add(doc.createPair(key, facts.toolchainSpec));
  }
  adaptSteps(doc, dir, facts.type);
  if (runner) for (const name of ["manifest", "compatibility", "conformance"]) jobs.get(name)?.set("runs-on", runner);
  doc.commentBefore = HEADER;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
