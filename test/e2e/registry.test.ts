/**
 * The newcomer's path from a registry: this package published to a real local registry
 * (verdaccio on 127.0.0.1, its own storage, stopped at the end), then the user's own commands:
 * `npm create executa@latest`, `npm install`, `npx executa test` / `build`, and the generated
 * READMEs' `npx --package=create-executa …` lines.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { localRegistry, type LocalRegistry } from "./local-registry.js";
import { REPO_ROOT, run, tempDir } from "./toolchain.js";
import { assertWorkflowInstallRuns } from "./workflow-install.js";
import { requires } from "../support/requires.js";

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

const root = tempDir("registry");
let local: LocalRegistry | undefined;
let registry = "";
/** The environment every user command runs in: the local registry, our own npm config and cache. */
let env: NodeJS.ProcessEnv = {};

before(async () => {
  local = await localRegistry(root);
  registry = local.url;
  env = local.env;
});

after(async () => {
  local?.stop();
  await new Promise((r) => setTimeout(r, 500));
  rmSync(root, { recursive: true, force: true });
});

describe("from a local registry", { timeout: 15 * 60_000 }, () => {
  test("npm create executa, npm install, npx executa test and build in a TypeScript project", () => {
    const created = run("npm", ["create", "executa@latest", "ts-plugin", "--", "--lang", "ts", "--yes", "--no-git"], {
      cwd: root,
      env,
    });
    assert.equal(created.status, 0, created.output);
    const dir = join(root, "ts-plugin");
    assertWorkflowInstallRuns(dir, registry, env);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    assert.equal(pkg.devDependencies["create-executa"], `^${VERSION}`);
    const installed = run("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env });
    assert.equal(installed.status, 0, installed.output);
    const lock = readFileSync(join(dir, "package-lock.json"), "utf8");
    assert.match(
      lock,
      new RegExp(`"resolved": "${registry.replace(/[.]/g, "\\.")}create-executa/-/create-executa-${VERSION}\\.tgz"`),
    );
    for (const args of [
      ["executa", "manifest", "--check"],
      ["executa", "test"],
      ["executa", "build"],
    ]) {
      const r = run("npx", args, { cwd: dir, env });
      assert.equal(r.status, 0, r.output);
    }
  });

  for (const lang of ["python", "go"] as const) {
    test(
      `npm create executa --lang ${lang}, then the generated README's npx lines`,
      requires(lang === "go" ? "go" : "python3"),
      () => {
        const created = run(
          "npm",
          ["create", "executa@latest", `${lang}-plugin`, "--", "--lang", lang, "--yes", "--no-git", "--no-install"],
          { cwd: root, env },
        );
        assert.equal(created.status, 0, created.output);
        const dir = join(root, `${lang}-plugin`);
        const readme = readFileSync(join(dir, "README.md"), "utf8");
        const npx = /npx --yes --package='create-executa@[^']+' executa/.exec(readme)?.[0];
        assert.ok(npx, "the README names the toolchain through npx");
        for (const verb of ["manifest --check", "test"]) {
          const r = run("sh", ["-c", `${npx} ${verb}`], { cwd: dir, env });
          assert.equal(r.status, 0, r.output);
        }
      },
    );
  }
});
