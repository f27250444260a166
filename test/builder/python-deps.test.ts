/**
 * A Python release that passes works: the generated workflow's build steps, run here in order in a
 * fresh interpreter (what setup-python gives a runner), freeze the project's third-party dependency
 * into a binary that answers the tool importing it; without the dependency the build fails, and a
 * module only imported at run time (invisible to PyInstaller) fails the build's verification.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { hostPlatformKey } from "../../src/protocol/index.js";
import { requires } from "../support/requires.js";
import { regenerateManifest, scaffoldProject } from "./helpers.js";

const EXECUTA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "executa.js");
const NPX_EXECUTA = 'npx --yes --package="create-executa@$EXECUTA_PACKAGE" executa';
const host = hostPlatformKey()!;
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const PARSE_DATE = `

from dateutil import parser as dateparser  # noqa: E402


@tool
def parse_date(text: str) -> dict:
    """Read a date written the way people write them.

    Args:
        text: The date, e.g. "4 July 2026".
    """
    return {"iso": dateparser.parse(text).date().isoformat()}
`;

interface Workflow {
  env: Record<string, string>;
  jobs: { build: { steps: Array<{ run?: string; uses?: string }> } };
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync("bash", ["-eo", "pipefail", "-c", command], { cwd, env, encoding: "utf8" });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A fresh interpreter with pip and nothing else: what actions/setup-python gives the build job. */
function freshPython(): string {
  const venv = mkdtempSync(join(tmpdir(), "executa-setup-python-"));
  made.push(venv);
  const r = spawnSync("python3", ["-m", "venv", venv], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return join(venv, "bin");
}

/** Runs the build job's `run:` steps in order, as a runner would, with our executa for npx's; the first failing step's output, or undefined. */
function runBuildJob(dir: string, pythonBin: string): { failed?: { step: string; out: string } } {
  const workflow = parse(readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8")) as Workflow;
  const env = {
    ...process.env,
    ...workflow.env,
    PATH: `${pythonBin}${delimiter}${process.env.PATH}`,
    NO_COLOR: "1",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
  };
  for (const step of workflow.jobs.build.steps) {
    if (!step.run) continue;
    const command = step.run
      .replaceAll(NPX_EXECUTA, `node ${JSON.stringify(EXECUTA)}`)
      .replaceAll("${{ matrix.target }}", host)
      .replaceAll("${{ env.PLUGIN }}", workflow.env.PLUGIN!);
    const result = sh(command, dir, env);
    if (result.code !== 0) return { failed: { step: step.run, out: result.out } };
  }
  return {};
}

function invoke(dir: string, binary: string, tool: string, args: object) {
  const r = spawnSync(
    process.execPath,
    [EXECUTA, "dev", "--invoke", tool, "--args", JSON.stringify(args), "--json", "--", binary],
    { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  return {
    code: r.status,
    answer: (JSON.parse(r.stdout || "{}") as { answer?: { success: boolean; data: unknown } }).answer,
    stderr: r.stderr,
  };
}

async function dateProject(): Promise<string> {
  const dir = await scaffoldProject("python", "dates");
  made.push(dirname(dir));
  appendFileSync(join(dir, "dates", "tools.py"), PARSE_DATE);
  const pyproject = join(dir, "pyproject.toml");
  writeFileSync(
    pyproject,
    readFileSync(pyproject, "utf8").replace("dependencies = []", 'dependencies = ["python-dateutil>=2.8"]'),
  );
  await regenerateManifest(dir);
  return dir;
}

const withoutDependency = (dir: string) => {
  const pyproject = join(dir, "pyproject.toml");
  writeFileSync(
    pyproject,
    readFileSync(pyproject, "utf8").replace('dependencies = ["python-dateutil>=2.8"]', "dependencies = []"),
  );
};

test("the workflow's build steps, run in order, make a binary that answers the tool importing python-dateutil; without the dependency the build fails", {
  ...requires("python3"),
  timeout: 15 * 60_000,
}, async () => {
  const dir = await dateProject();
  const ran = runBuildJob(dir, freshPython());
  assert.equal(ran.failed, undefined, `${ran.failed?.step}\n${ran.failed?.out}`);
  const binary = join(dir, "dist", `dates-${host}`, "bin", "dates");
  const answered = invoke(dir, binary, "parse_date", { text: "4 July 2026" });
  assert.equal(answered.code, 0, answered.stderr);
  assert.deepEqual(answered.answer?.data, { iso: "2026-07-04" });
  const build = JSON.parse(readFileSync(join(dir, "dist", "build.json"), "utf8")) as {
    targets: Array<{ verify: { status: string } }>;
  };
  assert.equal(build.targets[0]!.verify.status, "passed");

  withoutDependency(dir);
  const again = runBuildJob(dir, freshPython());
  assert.match(again.failed?.step ?? "", /executa build/, "the build step is the one that fails");
  assert.match(again.failed!.out, /imports modules that are not installed .*: dateutil \(imported by dates\.tools\)/);
  assert.match(again.failed!.out, /pip install -e \./, "the error gives the command that installs them");
});

test("executa build refuses when pyproject's dependencies are not installed for the interpreter it packs, with the command that installs them", {
  ...requires("python3"),
  timeout: 5 * 60_000,
}, async () => {
  const dir = await dateProject();
  const bin = freshPython();
  const pip = sh(
    `python -m pip install -q "pyinstaller==$(node -p 'require(${JSON.stringify(join(dirname(EXECUTA), "..", "data", "workflow-pins.json"))}).toolchain.pyinstaller')"`,
    dir,
    { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` },
  );
  assert.equal(pip.code, 0, pip.out);
  const built = sh(`node ${JSON.stringify(EXECUTA)} build`, dir, {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH}`,
    NO_COLOR: "1",
  });
  assert.equal(built.code, 2, built.out);
  assert.match(
    built.out,
    /pyproject\.toml's dependencies are not installed for .*python3?, which PyInstaller packs: python-dateutil>=2\.8 \(not installed\)/,
  );
  assert.match(built.out, /`.*python3? -m pip install -e \.`/);
});

test("a module imported only at run time (PyInstaller cannot see it) fails the build's verification, naming the missing module", {
  ...requires("python3"),
  timeout: 15 * 60_000,
}, async () => {
  const dir = await dateProject();
  const tools = join(dir, "dates", "tools.py");
  writeFileSync(
    tools,
    readFileSync(tools, "utf8").replace(
      "from dateutil import parser as dateparser  # noqa: E402",
      'import importlib  # noqa: E402\n\ndateparser = importlib.import_module("dateutil.parser")',
    ),
  );
  await regenerateManifest(dir);
  const bin = freshPython();
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, NO_COLOR: "1" };
  const installed = sh(
    `python -m pip install -q . "pyinstaller==$(node -p 'require(${JSON.stringify(join(dirname(EXECUTA), "..", "data", "workflow-pins.json"))}).toolchain.pyinstaller')"`,
    dir,
    env,
  );
  assert.equal(installed.code, 0, installed.out);
  const built = sh(`node ${JSON.stringify(EXECUTA)} build --json`, dir, env);
  assert.equal(built.code, 1, built.out);
  const report = JSON.parse(built.out.slice(built.out.indexOf("{"))) as {
    targets: Array<{ verify: { status: string; failures?: string[] } }>;
  };
  assert.equal(report.targets[0]!.verify.status, "failed");
  const failures = report.targets[0]!.verify.failures!.join("\n");
  assert.match(failures, /^invoke\.envelope: /);
  assert.match(failures, /parse_date cannot load a module it imports: ModuleNotFoundError: No module named 'dateutil'/);
});
