/**
 * scripts/install-platform.mjs: reuses a venv only when it holds the pins, says why it cannot, and
 * never builds over a folder it did not make. (Making a venv downloads the packages: .ci/run does it.)
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, run, tempDir } from "../e2e/toolchain.js";
import { platformPython, platformVenv } from "../support/platform.js";
import { requires } from "../support/requires.js";

const SCRIPT = join(REPO_ROOT, "scripts", "install-platform.mjs");
const installer = (args: string[], venv: string) =>
  run(process.execPath, [SCRIPT, ...args], { env: { EXECUTA_PLATFORM_VENV: venv } });

test("--check of a missing venv exits 1, saying where it looked and what to run", () => {
  const venv = join(tempDir("platform-missing"), "venv");
  const r = installer(["--check"], venv);
  assert.equal(r.status, 1, r.output);
  assert.match(r.stderr, new RegExp(`${venv} does not exist\\. Run: node scripts/install-platform\\.mjs`));
});

test("a non-empty folder it did not make is refused, not built over", () => {
  const venv = tempDir("platform-foreign");
  writeFileSync(join(venv, "keep.txt"), "mine");
  const r = installer([], venv);
  assert.equal(r.status, 1, r.output);
  assert.match(
    r.stderr,
    /exists and was not made by this script \(no executa-platform\.json\); remove it or point EXECUTA_PLATFORM_VENV elsewhere/,
  );
  assert.equal(readFileSync(join(venv, "keep.txt"), "utf8"), "mine");
});

test("the installed venv holds the pins; a venv made for other pins is not reused", requires("platform"), () => {
  const pins = (
    JSON.parse(readFileSync(join(REPO_ROOT, "data", "platform-packages.json"), "utf8")) as {
      packages: Record<string, string>;
    }
  ).packages;
  const record = JSON.parse(readFileSync(join(platformVenv()!, "executa-platform.json"), "utf8")) as {
    requirements: string[];
  };
  assert.deepEqual(record.requirements, [
    ...Object.entries(pins).map(([name, version]) => `${name}==${version}`),
    "pytest",
  ]);
  assert.equal(installer(["--check"], platformVenv()!).stdout.trim(), platformVenv());

  const stale = tempDir("platform-stale");
  mkdirSync(join(stale, "bin"));
  symlinkSync(platformPython(), join(stale, "bin", "python"));
  writeFileSync(
    join(stale, "executa-platform.json"),
    JSON.stringify({ requirements: ["anna-app-core==0.1.0", "pytest"] }),
  );
  const r = installer(["--check"], stale);
  assert.equal(r.status, 1, r.output);
  assert.match(r.stderr, /it was made for \["anna-app-core==0\.1\.0","pytest"\]/);
});
