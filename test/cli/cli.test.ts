/** The command lines themselves: the fast answers, and one JSON object in every outcome. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function cli(program: "executa" | "create-executa", args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", `${program}.js`), ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CI: "true", ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

for (const program of ["executa", "create-executa"] as const) {
  test(`${program}: the help written at build time equals the live help, and --version is the package's`, () => {
    const fast = cli(program, ["--help"]);
    const live = cli(program, ["--help"], { EXECUTA_NO_FAST_PATH: "1" });
    assert.equal(fast.code, 0);
    assert.equal(fast.stdout, live.stdout);
    assert.match(live.stdout, program === "executa" ? /executa <verb> \[options\]/ : /create-executa \[dir\]/);
    assert.equal(cli(program, ["--version"]).stdout, `${VERSION}\n`);
  });
}

/** The one object a --json command prints, whatever happened. */
function oneObject(stdout: string): { status: string; error?: { message: string; hint?: string } } {
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1, `expected one line of JSON, got:\n${stdout}`);
  return JSON.parse(lines[0]!);
}

test("--json: a usage error is one object with status error, message and hint, exit 2", () => {
  for (const args of [
    ["test", "--bogus", "--json"],
    ["build", "--runtime", "deno", "--json"],
    ["manifest", "--json", "--check", "--from-plugin", "--", "/nonexistent/executa-plugin"],
  ]) {
    const r = cli("executa", args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    const out = oneObject(r.stdout);
    assert.equal(out.status, "error", args.join(" "));
    assert.ok(out.error?.message, args.join(" "));
    assert.match(r.stderr, /executa: error:/);
  }
});

test("--json: a command that cannot run on its input is one object with status error", () => {
  const empty = mkdtempSync(join(tmpdir(), "executa-cli-"));
  for (const args of [
    ["manifest", empty, "--json"],
    ["build", empty, "--json"],
    ["test", join(empty, "missing"), "--json"],
    ["dev", empty, "--describe", "--json"],
  ]) {
    const r = cli("executa", args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    const out = oneObject(r.stdout);
    assert.equal(out.status, "error", args.join(" "));
    assert.ok(out.error?.hint, `${args.join(" ")} has a hint`);
  }
  const created = cli("create-executa", [join(empty, "Bad Name"), "--lang", "go", "--json"]);
  assert.equal(created.code, 2);
  assert.equal(oneObject(created.stdout).status, "error");
});
