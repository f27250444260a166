#!/usr/bin/env node
// Installs Anna's host-side packages, at the versions pinned in data/platform-packages.json (plus
// pytest), into a virtual environment the interop tier runs: test/interop/ drives our plugins with
// the platform's own bridge and its anna-executa-test checks.
//
//   node scripts/install-platform.mjs           create the venv, or reuse it when it already holds the pins
//   node scripts/install-platform.mjs --check   exit 0 and print the venv's folder when it holds the pins, else exit 1 saying why
//
// The venv lives at ~/.cache/create-executa/anna-platform/<hash of the pins>, or at
// $EXECUTA_PLATFORM_VENV. It is built in a temporary sibling folder and renamed into place, so a
// half-made venv is never reused: run its tools as `<venv>/bin/python -m <module>` (the console
// scripts in bin/ name the temporary folder). $EXECUTA_PLATFORM_PYTHON picks the Python that
// creates it (default python3; the packages need 3.10 or later).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PINS_FILE = "data/platform-packages.json";
const RECORD = "executa-platform.json";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

class Refusal extends Error {}

/** `name==version` for each pinned package, in the file's order, then pytest. */
function requirements() {
  const { packages } = JSON.parse(readFileSync(join(root, PINS_FILE), "utf8"));
  if (!packages || typeof packages !== "object" || Object.keys(packages).length === 0) {
    throw new Refusal(`${PINS_FILE} has no "packages" object of name: version pins`);
  }
  return [...Object.entries(packages).map(([name, version]) => `${name}==${version}`), "pytest"];
}

function venvFolder(reqs) {
  if (process.env.EXECUTA_PLATFORM_VENV) return resolve(process.env.EXECUTA_PLATFORM_VENV);
  const hash = createHash("sha256").update(JSON.stringify(reqs)).digest("hex").slice(0, 12);
  return join(homedir(), ".cache", "create-executa", "anna-platform", hash);
}

const pythonOf = (venv) => join(venv, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");

function run(program, args) {
  const r = spawnSync(program, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return {
    ok: r.status === 0,
    output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error.message) : ""}`.trim(),
  };
}

// Prints each pinned distribution whose installed version differs from its pin (or that is missing).
const VERIFY = `
import importlib.metadata as m, json, sys
for req in json.loads(sys.argv[1]):
    name, _, want = req.partition("==")
    try:
        have = m.version(name)
    except m.PackageNotFoundError:
        print(f"{name} is not installed"); continue
    if want and have != want:
        print(f"{name} is {have}, pinned {want}")
import anna_app_runtime_local.bridge, anna_app_core, anna_executa_test, pytest
`;

/** Why the venv at `venv` does not hold `reqs`, or null when it does. */
function mismatch(venv, reqs) {
  const python = pythonOf(venv);
  if (!existsSync(python)) return `there is no ${python}`;
  let record;
  try {
    record = JSON.parse(readFileSync(join(venv, RECORD), "utf8"));
  } catch {
    return `${join(venv, RECORD)} is missing or unreadable`;
  }
  if (JSON.stringify(record.requirements) !== JSON.stringify(reqs))
    return `it was made for ${JSON.stringify(record.requirements)}, not ${JSON.stringify(reqs)}`;
  const verify = run(python, ["-c", VERIFY, JSON.stringify(reqs)]);
  if (!verify.ok || verify.output) return verify.output || "its packages do not import";
  return null;
}

function create(venv, reqs) {
  const base = process.env.EXECUTA_PLATFORM_PYTHON || "python3";
  const version = run(base, [
    "-c",
    "import sys; assert sys.version_info >= (3, 10), sys.version; print(sys.version.split()[0])",
  ]);
  if (!version.ok) {
    throw new Refusal(
      `${base} cannot make the platform venv: Anna's packages need Python 3.10 or later (${version.output || `${base} did not report a version`}). Install it, or set EXECUTA_PLATFORM_PYTHON to one.`,
    );
  }
  mkdirSync(dirname(venv), { recursive: true });
  const partial = `${venv}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    const made = run(base, ["-m", "venv", partial]);
    if (!made.ok)
      throw new Refusal(`${base} -m venv failed (on Debian or Ubuntu: apt-get install python3-venv):\n${made.output}`);
    process.stderr.write(`installing ${reqs.join(" ")} into ${venv}\n`);
    const pip = run(pythonOf(partial), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...reqs]);
    if (!pip.ok)
      throw new Refusal(
        `pip could not install the pinned platform packages (are the pins in ${PINS_FILE} published, and is the package index reachable?):\n${pip.output}`,
      );
    writeFileSync(join(partial, RECORD), JSON.stringify({ requirements: reqs, pinned_in: PINS_FILE }, null, 2) + "\n");
    const why = mismatch(partial, reqs);
    if (why) throw new Refusal(`the new venv does not hold the pins: ${why}`);
    rmSync(venv, { recursive: true, force: true });
    renameSync(partial, venv);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

try {
  const reqs = requirements();
  const venv = venvFolder(reqs);
  const why = existsSync(venv) ? mismatch(venv, reqs) : `${venv} does not exist`;
  if (process.argv.includes("--check")) {
    if (why) {
      process.stderr.write(`the platform venv is not installed: ${why}. Run: node scripts/install-platform.mjs\n`);
      process.exit(1);
    }
    process.stdout.write(`${venv}\n`);
    process.exit(0);
  }
  if (why) {
    if (existsSync(venv) && !existsSync(join(venv, RECORD)) && readdirSync(venv).length > 0) {
      throw new Refusal(
        `${venv} exists and was not made by this script (no ${RECORD}); remove it or point EXECUTA_PLATFORM_VENV elsewhere`,
      );
    }
    create(venv, reqs);
    process.stderr.write(`platform venv ready: ${venv}\n`);
  } else {
    process.stderr.write(`platform venv already holds the pins: ${venv}\n`);
  }
  process.stdout.write(`${venv}\n`);
} catch (err) {
  if (!(err instanceof Refusal)) throw err;
  process.stderr.write(`install-platform: ${err.message}\n`);
  process.exit(1);
}
