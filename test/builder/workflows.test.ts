/** The generated workflows: build matrices rendered from the builder's targets, attested releases, actionlint clean. */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { parse } from "yaml";
import { buildTargets, workflowMatrix } from "../../src/builder/index.js";
import { CROSS_RUNNER, goEnvFor, nodeRuntimeFor, WORKFLOW_PINS } from "../../src/builder/targets/index.js";
import { PLATFORM_KEYS, PLATFORMS, type PlatformKey } from "../../src/protocol/index.js";
import { exec, which } from "../../src/common/exec.js";
import { scaffoldProject } from "./helpers.js";

const LANGS = ["ts", "python", "go"] as const;
type Lang = (typeof LANGS)[number];
const dirs = {} as Record<Lang, string>;
const workflows = {} as Record<Lang, Workflow>;

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { target?: string[]; include?: Array<{ os: string; target: string }> } };
  steps: Step[];
}
interface Workflow {
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

before(async () => {
  for (const lang of LANGS) {
    dirs[lang] = await scaffoldProject(lang, `wf-${lang}`);
    workflows[lang] = parse(readFileSync(join(dirs[lang], ".github", "workflows", "ci.yml"), "utf8")) as Workflow;
  }
});
after(() => LANGS.forEach((l) => dirs[l] && rmSync(dirname(dirs[l]), { recursive: true, force: true })));

function matrixOf(lang: Lang): Array<{ target: string; os?: string }> {
  const matrix = workflows[lang].jobs.build!.strategy!.matrix;
  return matrix.include ?? matrix.target!.map((target) => ({ target }));
}

test("every target in each workflow's build matrix is one `executa build` accepts for the language", () => {
  for (const lang of LANGS) {
    const accepted: string[] = buildTargets(lang);
    const targets = matrixOf(lang).map((m) => m.target);
    assert.ok(targets.length > 0, lang);
    for (const target of targets) assert.ok(accepted.includes(target), `${lang}: executa build refuses ${target}`);
  }
  for (const { target } of matrixOf("ts")) assert.doesNotThrow(() => nodeRuntimeFor(target as never), target);
  for (const { target } of matrixOf("go")) assert.doesNotThrow(() => goEnvFor(target as never), target);
  assert.ok(!matrixOf("ts").some((m) => m.target === "linux-armv7l"), "Node has no linux-armv7l build");
});

test("each matrix is derived from the one platform table: every Anna platform the language builds that a hosted runner has", () => {
  const all = PLATFORM_KEYS as readonly string[];
  // Go cross-builds every platform; TypeScript those Node publishes a binary for (not linux-armv7l).
  assert.deepEqual(
    matrixOf("go").map((m) => m.target),
    [...all],
  );
  assert.deepEqual(
    matrixOf("ts").map((m) => m.target),
    all.filter((k) => k !== "linux-armv7l"),
  );
  // Python builds natively: every platform but linux-armv7l, which has no hosted runner.
  assert.deepEqual(
    matrixOf("python").map((m) => m.target),
    all.filter((k) => k !== "linux-armv7l"),
  );
  for (const { target, os } of matrixOf("python")) {
    const { os: platformOs, arch } = PLATFORMS[target as PlatformKey];
    const runnerOs = { linux: /^ubuntu-/, darwin: /^macos-/, windows: /^windows-/ }[platformOs];
    assert.match(os!, runnerOs, `${target} builds on a ${platformOs} runner`);
    assert.equal(
      /-arm$|^macos-1[4-9]$/.test(os!),
      arch === "arm64" || arch === "aarch64",
      `${target} builds on a runner of its own architecture (${os})`,
    );
  }
  assert.deepEqual(matrixOf("python"), workflowMatrix("python"));
  for (const lang of ["ts", "go"] as const)
    assert.ok(
      matrixOf(lang).every((m) => m.os === undefined || m.os === CROSS_RUNNER),
      lang,
    );
});

test("every action is pinned by commit with its tag in a comment, from the one table; the toolchain at exact versions", () => {
  const EXACT = /^\d+\.\d+\.\d+$/;
  for (const lang of LANGS) {
    const text = readFileSync(join(dirs[lang], ".github", "workflows", "ci.yml"), "utf8");
    const uses = [...text.matchAll(/uses: (.*)$/gm)].map((m) => m[1]!);
    assert.ok(uses.length > 5, lang);
    for (const line of uses) {
      const m = /^([\w.-]+\/[\w.-]+)@([0-9a-f]{40}) # (v[\d.]+)$/.exec(line);
      assert.ok(m, `${lang}: ${line} is not pinned by commit with its tag in a comment`);
      assert.deepEqual(
        { sha: m[2], tag: m[3] },
        WORKFLOW_PINS.actions[m[1]!],
        `${lang}: ${m[1]} is not the table's pin`,
      );
    }
    for (const [, key, value = ""] of text.matchAll(/^\s*(node-version|python-version|go-version): (.*)$/gm)) {
      if (value.includes("matrix.python")) continue; // the unit tests' range of supported Pythons
      assert.match(value, EXACT, `${lang}: ${key} ${value}`);
    }
  }
  const python = workflows.python;
  assert.equal(
    (python as unknown as { env: Record<string, string> }).env.PYINSTALLER_VERSION,
    WORKFLOW_PINS.toolchain.pyinstaller,
  );
  assert.ok(
    python.jobs.build!.steps.some((s) => s.run === 'python -m pip install . "pyinstaller==$PYINSTALLER_VERSION"'),
    "the build job installs the project, its dependencies and the pinned PyInstaller",
  );
  assert.match(
    readFileSync(join(dirs.python, "pyproject.toml"), "utf8"),
    new RegExp(`build = \\["pyinstaller==${WORKFLOW_PINS.toolchain.pyinstaller.replaceAll(".", "\\.")}"\\]`),
  );
});

test("releases are attested with the least permissions; pull requests run the breaking-change gate", () => {
  for (const lang of LANGS) {
    const wf = workflows[lang];
    assert.deepEqual(wf.permissions, { contents: "read" }, `${lang}: read-only by default`);
    const release = wf.jobs.release!;
    assert.deepEqual(release.permissions, { contents: "write", "id-token": "write", attestations: "write" }, lang);
    const attest = release.steps.find((s) => s.uses?.startsWith("actions/attest-build-provenance@"));
    assert.ok(attest, `${lang}: no provenance attestation`);
    const subjects = String(attest.with?.["subject-path"]);
    for (const glob of ["*.tar.gz", "*.zip", "*.cdx.json"])
      assert.ok(subjects.includes(glob), `${lang}: ${glob} not attested`);
    const published = String(
      release.steps.find((s) => s.uses?.startsWith("softprops/action-gh-release@"))?.with?.files,
    );
    for (const glob of ["*.sha256", "*.cdx.json", "SHA256SUMS"])
      assert.ok(published.includes(glob), `${lang}: ${glob} not released`);
    const gate = wf.jobs.compatibility!;
    assert.equal(gate.if, "github.event_name == 'pull_request'");
    assert.equal(gate.steps[0]!.with?.["fetch-depth"], 0, `${lang}: the gate needs the tags`);
    assert.ok(
      gate.steps.some((s) => /executa manifest --check --against\b/.test(s.run ?? "")),
      lang,
    );
  }
});

test("the manifest job fails when the vendored runtime is older than the toolchain's (executa upgrade --check)", () => {
  for (const lang of LANGS)
    assert.ok(
      workflows[lang].jobs.manifest!.steps.some((s) => /executa upgrade --check$/.test(s.run ?? "")),
      lang,
    );
});

/** actionlint on PATH, or where `go install` puts it. */
async function actionlint(): Promise<string | undefined> {
  const onPath = which("actionlint");
  if (onPath) return onPath;
  if (!which("go")) return undefined;
  const gopath = (await exec("go", ["env", "GOPATH"])).stdout.trim();
  const installed = join(gopath, "bin", process.platform === "win32" ? "actionlint.exe" : "actionlint");
  return gopath && existsSync(installed) ? installed : undefined;
}

test("actionlint finds nothing in the three generated workflows", async (t) => {
  const linter = await actionlint();
  if (!linter) {
    if (process.env.CI)
      throw new Error(
        "actionlint is not installed: .ci/run installs it with `go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12`",
      );
    return t.skip("actionlint is not installed (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12)");
  }
  for (const lang of LANGS) {
    const result = await exec(linter, ["-no-color", join(".github", "workflows", "ci.yml")], { cwd: dirs[lang] });
    assert.equal(result.code, 0, `${lang}:\n${result.stdout}${result.stderr}`);
  }
});

test("the TypeScript workflow installs and runs the toolchain with the project's package manager, actionlint clean", async (t) => {
  const expected = {
    pnpm: {
      setup: "pnpm/action-setup",
      cache: "pnpm",
      install: "pnpm install --frozen-lockfile",
      executa: "pnpm exec executa",
    },
    yarn: { setup: undefined, cache: "yarn", install: "yarn install --immutable", executa: "yarn executa" },
    bun: {
      setup: "oven-sh/setup-bun",
      cache: undefined,
      install: "bun install --frozen-lockfile",
      executa: "bunx executa",
    },
  } as const;
  const linter = await actionlint();
  for (const [name, want] of Object.entries(expected)) {
    const dir = await scaffoldProject(
      "ts",
      `wf-${name}`,
      {},
      {
        name: name as keyof typeof expected,
        version: name === "bun" ? "1.4.5" : name === "yarn" ? "4.18.1" : "10.34.9",
      },
    );
    try {
      const text = readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8");
      assert.doesNotMatch(text, /(?<![\w-])(npx |npm (ci|test|run))/, name);
      const wf = parse(text) as Workflow;
      for (const [jobName, job] of Object.entries(wf.jobs)) {
        const node = job.steps.find((s) => s.uses?.startsWith("actions/setup-node@"));
        if (!node) continue;
        const at = job.steps.indexOf(node);
        assert.equal(node.with?.cache, want.cache, `${name} ${jobName}`);
        assert.equal(job.steps[at + 1]?.run, want.install, `${name} ${jobName}`);
        if (want.setup) assert.equal(job.steps[at - 1]?.uses?.split("@")[0], want.setup, `${name} ${jobName}`);
        if (name === "yarn") assert.equal(job.steps[at - 1]?.run, "corepack enable", `${name} ${jobName}`);
      }
      assert.ok(
        wf.jobs.conformance!.steps.some((s) => s.run === `${want.executa} test`),
        name,
      );
      if (linter) {
        const result = await exec(linter, ["-no-color", join(".github", "workflows", "ci.yml")], { cwd: dir });
        assert.equal(result.code, 0, `${name}:\n${result.stdout}${result.stderr}`);
      } else t.diagnostic("actionlint is not installed: the workflows were parsed, not linted");
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  }
});
