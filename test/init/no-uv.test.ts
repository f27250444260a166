/**
 * `executa init --tool-id X` on a pyproject package, on a machine without uv: the command it
 * writes runs here (test, dev and manifest --check do not fail with `spawn uv ENOENT`), the note
 * says what to install for Anna's `uv run`, and every printed next step is a command that runs.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { requires } from "../support/requires.js";
import { adoptable } from "./helpers.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A PATH that holds python3 and node only (no uv). */
function pathWithoutUv(): string {
  const bin = mkdtempSync(join(tmpdir(), "executa-no-uv-"));
  made.push(bin);
  const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
  symlinkSync(python, join(bin, "python3"));
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

test("init --tool-id on a machine without uv writes a python3 command that runs, says how to get uv, and prints runnable next steps", {
  ...requires("python3"),
  timeout: 300_000,
}, () => {
  const dir = adoptable("notebook", { "storage_notes/__main__.py": "python/storage_notebook.py" });
  made.push(dirname(dir));
  writeFileSync(join(dir, "storage_notes", "__init__.py"), "");
  writeFileSync(
    join(dir, "pyproject.toml"),
    '[project]\nname = "storage-notebook"\nversion = "0.2.0"\n\n[project.scripts]\nstorage-notebook = "storage_notes.__main__:main"\n',
  );
  const env = { ...process.env, PATH: pathWithoutUv(), CI: "true", NO_COLOR: "1" };
  const executa = (...args: string[]) =>
    spawnSync(process.execPath, [EXECUTA, ...args], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });

  const init = executa("init", "--tool-id", "tool-acme-notebook", "--json");
  assert.equal(init.status, 0, init.stderr);
  const out = JSON.parse(init.stdout) as { command: string[]; notes: string[]; next: string[] };
  assert.deepEqual(out.command.slice(0, 2), ["python3", "-c"], "not `uv run`: uv is not installed here");
  assert.ok(
    out.notes.some(
      (n) =>
        /uv is not installed/.test(n) &&
        /pip install uv/.test(n) &&
        /"uv", "run", "--project", ".", "storage-notebook"/.test(n),
    ),
    out.notes.join("\n"),
  );

  const check = executa("manifest", "--check");
  assert.equal(check.status, 0, `${check.stdout}\n${check.stderr}`);
  assert.doesNotMatch(check.stderr, /ENOENT/);

  // Each next step names a program that runs here (not a bare `executa` that is not on PATH).
  for (const step of out.next) {
    const [program, ...args] = step.split(" ");
    const r = spawnSync(
      program!,
      [
        ...args.filter(
          (a) =>
            a !== "--describe" && a !== "test" && a !== "build" && a !== "dev" && a !== "--check" && a !== "manifest",
        ),
        "--version",
      ],
      { cwd: dir, env, encoding: "utf8" },
    );
    assert.equal(r.error, undefined, `${step}: ${r.error?.message}`);
    assert.equal(r.status, 0, `${step}: ${r.stderr}`);
  }
});
