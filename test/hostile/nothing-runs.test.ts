/**
 * Nothing of a cloned project runs for a manifest: not its .venv's interpreter (a script), not a
 * .pth file of its venv, not a PYTHONPATH or a `go` it puts first on PATH, not a Go toolchain its
 * environment names. Each attack writes a canary file when it runs; `executa manifest --check`,
 * `add tool` and `upgrade` must succeed without it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { requires } from "../support/requires.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const CREATE = join(PACKAGE_ROOT, "bin", "create-executa.js");
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function temp(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `executa-nothing-runs-${label}-`));
  made.push(dir);
  return dir;
}

function run(bin: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, CI: "true", NO_COLOR: "1", ...env },
    timeout: 300_000,
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    shown: `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
  };
}

const realPython = () =>
  spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();

type Attack = "a script as .venv/bin/python" | "a .pth file in its .venv";
const ATTACKS: Attack[] = ["a script as .venv/bin/python", "a .pth file in its .venv"];

/**
 * The attack planted in `dir`, with a PYTHONPATH holding a sitecustomize.py, each writing `canary`
 * when it runs. Returns the environment a shell in the project would have (the venv activated).
 */
function plantPython(dir: string, canary: string, attack: Attack): NodeJS.ProcessEnv {
  // A real venv (so its site-packages are a venv's), whose interpreter is then replaced by a script.
  const venv = join(dir, ".venv");
  const made = spawnSync(realPython(), ["-m", "venv", "--without-pip", venv], { encoding: "utf8" });
  assert.equal(made.status, 0, made.stderr);
  const site = spawnSync(
    join(venv, "bin", "python"),
    ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
    { encoding: "utf8" },
  ).stdout.trim();
  writeFileSync(join(site, "zz-canary.pth"), `import os; open(${JSON.stringify(canary)}, "a").write("pth\\n")\n`);
  for (const name of attack === "a script as .venv/bin/python" ? ["python", "python3"] : []) {
    const script = join(venv, "bin", name);
    rmSync(script, { force: true });
    writeFileSync(script, `#!/bin/sh\necho venv-python >> '${canary}'\nexec '${realPython()}' "$@"\n`);
    chmodSync(script, 0o755);
  }
  const pythonPath = join(dir, "pythonpath");
  mkdirSync(pythonPath);
  writeFileSync(
    join(pythonPath, "sitecustomize.py"),
    `open(${JSON.stringify(canary)}, "a").write("sitecustomize\\n")\n`,
  );
  // The venv activated: its bin first on PATH, and the project's PYTHONPATH.
  return {
    PATH: `${join(venv, "bin")}${delimiter}${process.env.PATH}`,
    VIRTUAL_ENV: venv,
    PYTHONPATH: pythonPath,
    PYTHONSTARTUP: join(pythonPath, "sitecustomize.py"),
  };
}

function assertNoCanary(canary: string, what: string): void {
  assert.ok(
    !existsSync(canary),
    `${what} ran the project's code: ${existsSync(canary) ? spawnSync("cat", [canary], { encoding: "utf8" }).stdout : ""}`,
  );
}

describe("a cloned Python project", requires("python3"), () => {
  for (const attack of ATTACKS) {
    test(`with ${attack}: manifest --check and add tool run none of it, nor PYTHONPATH`, { timeout: 300_000 }, () => {
      const dir = join(temp("py"), "cloned-plugin");
      const created = run(CREATE, tmpdir(), [
        dir,
        "--lang",
        "python",
        "--template",
        "minimal",
        "--no-install",
        "--no-git",
        "--yes",
      ]);
      assert.equal(created.code, 0, created.shown);
      const canary = join(temp("canary"), "ran.txt");
      const env = plantPython(dir, canary, attack);

      const check = run(EXECUTA, dir, ["manifest", "--check"], env);
      assert.equal(check.code, 0, check.shown);
      assertNoCanary(canary, "executa manifest --check");

      const add = run(
        EXECUTA,
        dir,
        ["add", "tool", "shout", "--description", "Shout the text.", "--param", "text:string"],
        env,
      );
      assert.equal(add.code, 0, add.shown);
      assertNoCanary(canary, "executa add tool");
      assert.equal(run(EXECUTA, dir, ["manifest", "--check"], env).code, 0);
    });

    test(`with ${attack}: upgrade (which regenerates the manifest) runs none of it`, { timeout: 300_000 }, () => {
      const dir = join(temp("py-upgrade"), "legacy-python");
      cpSync(join(PACKAGE_ROOT, "test", "fixtures", "runtime-v1", "python"), dir, { recursive: true });
      const canary = join(temp("canary"), "ran.txt");
      const env = plantPython(dir, canary, attack);
      const upgrade = run(EXECUTA, dir, ["upgrade", "--json"], env);
      assert.equal(upgrade.code, 0, upgrade.shown);
      const out = JSON.parse(upgrade.stdout) as { outcome: string; manifestError?: unknown };
      assert.equal(out.outcome, "upgraded");
      assert.equal(out.manifestError, undefined, upgrade.shown);
      assertNoCanary(canary, "executa upgrade");
    });
  }
});

describe("a cloned Go project", requires("go"), () => {
  test("manifest --check builds the helper with our Go only: no go of the project's on PATH, no toolchain switch, no GOFLAGS", {
    timeout: 300_000,
  }, () => {
    const dir = join(temp("go"), "cloned-go");
    const created = run(CREATE, tmpdir(), [
      dir,
      "--lang",
      "go",
      "--template",
      "minimal",
      "--no-install",
      "--no-git",
      "--yes",
    ]);
    assert.equal(created.code, 0, created.shown);
    const canary = join(temp("canary"), "ran.txt");
    // A go.mod that asks for a Go that does not exist, a `go` of the project's own first on PATH
    // (as direnv would put it), and an environment naming another toolchain and flags.
    writeFileSync(
      join(dir, "go.mod"),
      `${spawnSync("cat", [join(dir, "go.mod")], { encoding: "utf8" }).stdout}\ntoolchain go1.99.1\n`,
    );
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "go"), `#!/bin/sh\necho project-go >> '${canary}'\nexit 1\n`);
    chmodSync(join(dir, "bin", "go"), 0o755);
    const env = {
      PATH: `${join(dir, "bin")}${delimiter}${process.env.PATH}`,
      GOTOOLCHAIN: "go1.99.1",
      GOFLAGS: "-modfile=/nonexistent/go.mod",
      // A fresh cache: the helper is built in this run, not taken from an earlier one (Go's build cache stays).
      XDG_CACHE_HOME: temp("go-cache"),
      GOCACHE: spawnSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).stdout.trim(),
    };
    const check = run(EXECUTA, dir, ["manifest", "--check"], env);
    assert.equal(check.code, 0, check.shown);
    assertNoCanary(canary, "executa manifest --check");
  });
});
