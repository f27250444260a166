/**
 * A project's CI install, run as the generated workflow writes it, in a copy of the project as a
 * fresh checkout has it (no node_modules, dist or .git): the step after actions/setup-node in the
 * conformance job, and setup-node's npm cache, which fails without a lockfile.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, lstatSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parse } from "yaml";
import { run } from "./toolchain.js";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

/** The conformance job's setup-node step and the install step after it. */
export function workflowInstall(dir: string): { setupNode: Step; install: string } {
  const workflow = parse(readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8")) as {
    jobs: Record<string, { steps: Step[] }>;
  };
  const steps = workflow.jobs.conformance!.steps;
  const at = steps.findIndex((s) => s.uses?.startsWith("actions/setup-node@"));
  assert.ok(at >= 0, "the conformance job sets up Node");
  const install = steps[at + 1]?.run;
  assert.ok(install, "a run step follows setup-node");
  return { setupNode: steps[at]!, install };
}

/**
 * Runs the workflow's install in a checkout-like copy of `dir` with `env` (the registry's), and
 * checks that package-lock.json, when there is one, resolves every package from `registry` and
 * that npm installed the toolchain from it.
 * Returns the copy, made beside `dir`.
 */
export function assertWorkflowInstallRuns(dir: string, registry: string, env: NodeJS.ProcessEnv): string {
  const checkout = join(dirname(dir), `${basename(dir)}-checkout`);
  cpSync(dir, checkout, {
    recursive: true,
    filter: (path) => !["node_modules", "dist", ".git"].includes(basename(path)),
  });
  const { setupNode, install } = workflowInstall(checkout);
  const lockfile = join(checkout, "package-lock.json");
  if (setupNode.with?.cache === "npm")
    assert.ok(existsSync(lockfile), "setup-node's npm cache needs package-lock.json");
  if (existsSync(lockfile)) {
    const lock = JSON.parse(readFileSync(lockfile, "utf8")) as {
      packages: Record<string, { resolved?: string; link?: boolean }>;
    };
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === "") continue;
      assert.ok(!entry.link, `${path} is a link in package-lock.json: ${entry.resolved}`);
      assert.ok(entry.resolved?.startsWith(registry), `${path} resolves from ${entry.resolved}, not the registry`);
    }
  }
  const ran = run("sh", ["-c", install], { cwd: checkout, env });
  assert.equal(ran.status, 0, ran.output);
  const pkg = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as {
    devDependencies?: Record<string, string>;
  };
  if (existsSync(lockfile) && pkg.devDependencies?.["create-executa"]) {
    assert.ok(
      !lstatSync(join(checkout, "node_modules", "create-executa")).isSymbolicLink(),
      "the toolchain is installed from the registry",
    );
  }
  return checkout;
}
