/**
 * Every way a TypeScript project is made ends with a CI whose install step works as generated:
 * the workflow's install, run in a checkout-like copy of the project against a local registry
 * (this package published to it), and package-lock.json resolving from that registry, never a
 * link into the toolchain's folder or tarball. `npm create executa` is covered in registry.test.ts.
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { localRegistry, type LocalRegistry } from "./local-registry.js";
import { REPO_ROOT, installedToolchain, run, tempDir, toolchain, type Run } from "./toolchain.js";
import { assertWorkflowInstallRuns, workflowInstall } from "./workflow-install.js";

const root = tempDir("lockfile");
let local: LocalRegistry | undefined;
let env: NodeJS.ProcessEnv = {};

before(async () => {
  local = await localRegistry(root);
  env = local.env;
});

after(async () => {
  local?.stop();
  await new Promise((r) => setTimeout(r, 500));
  rmSync(root, { recursive: true, force: true });
});

interface Created {
  steps: Array<{ step: string; status: string; message?: string }>;
  next: string[];
}

function created(r: Run): Created {
  assert.equal(r.status, 0, r.output);
  return JSON.parse(r.stdout) as Created;
}

const CREATE = ["--lang", "ts", "--yes", "--no-git", "--json"];

describe("a TypeScript project's CI install", { timeout: 20 * 60_000 }, () => {
  test("create-executa run from a source checkout: the lockfile is the registry's, written before the checkout is linked in, which is not rebuilt", () => {
    const dir = join(root, "from-checkout");
    // What the running create-executa is loaded from, and what tsc and the bundler would write again.
    const built = ["dist/cli/create-executa.js", "dist/src/common/errors.js"].map((f) => join(REPO_ROOT, f));
    const stamps = () => built.map((f) => `${f} ${statSync(f).mtimeMs}`);
    const before = stamps();
    const out = created(run(process.execPath, [join(REPO_ROOT, "bin", "create-executa.js"), dir, ...CREATE], { env }));
    assert.deepEqual(stamps(), before, "npm prepared the linked checkout by building it again");
    assert.deepEqual(
      out.steps.map((s) => [s.step, s.status]),
      [
        ["manifest", "done"],
        ["lockfile", "done"],
        ["install", "done"],
        ["git", "skipped"],
      ],
      JSON.stringify(out.steps),
    );
    assert.equal(workflowInstall(dir).install, "npm ci");
    assertWorkflowInstallRuns(dir, local!.url, env);
  });

  test("--toolchain <tarball>", () => {
    const dir = join(root, "from-tarball");
    const out = created(
      toolchain("create-executa", [dir, ...CREATE, `--toolchain=file:${installedToolchain().tarball}`], { env }),
    );
    assert.equal(out.steps.find((s) => s.step === "lockfile")?.status, "done", JSON.stringify(out.steps));
    assertWorkflowInstallRuns(dir, local!.url, env);
  });

  test("--no-install: the next steps start with the install, which writes the lockfile", () => {
    const dir = join(root, "no-install");
    const out = created(toolchain("create-executa", [dir, ...CREATE, "--no-install"], { env }));
    assert.deepEqual(out.next.slice(1, 3), ["npm install", "npm test"]);
    const installed = run("sh", ["-c", out.next[1]!], { cwd: dir, env });
    assert.equal(installed.status, 0, installed.output);
    assertWorkflowInstallRuns(dir, local!.url, env);
  });

  for (const lockfile of [false, true]) {
    test(`executa init --ci on a Node package with a TypeScript devDependency, ${lockfile ? "with" : "without"} a lockfile`, () => {
      const dir = join(root, `init-${lockfile ? "locked" : "unlocked"}`);
      cpSync(join(REPO_ROOT, "test", "plugins", "node", "text-toolkit"), dir, { recursive: true });
      const pkgPath = join(dir, "package.json");
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as Record<string, unknown>;
      writeFileSync(pkgPath, JSON.stringify({ ...pkg, devDependencies: { typescript: "6.0.3" } }, null, 2));
      if (lockfile)
        assert.equal(
          run("npm", ["install", "--package-lock-only", "--no-audit", "--no-fund"], { cwd: dir, env }).status,
          0,
        );
      const init = toolchain("executa", ["init", "--ci", "--json"], { cwd: dir, env });
      assert.equal(init.status, 0, init.output);
      assert.equal(workflowInstall(dir).install, lockfile ? "npm ci" : "npm install");
      assertWorkflowInstallRuns(dir, local!.url, env);
    });
  }
});
