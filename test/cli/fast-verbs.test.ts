import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { switchesOnly } from "../../src/cli/fast.js";
import { manifestCommand } from "../../src/cli/manifest.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

test("the fast path takes only switches of the verb's own table and one folder; anything else goes to yargs", () => {
  assert.deepEqual(switchesOnly(manifestCommand, ["--check", "--no-strict", "some/dir"]), {
    _: ["manifest"],
    check: true,
    strict: false,
    "from-plugin": false,
    "sync-version": false,
    json: false,
    dir: "some/dir",
  });
  for (const rest of [
    ["--against", "v1"],
    ["--help"],
    ["-h"],
    ["--check", "--", "go", "run", "."],
    ["--chek"],
    ["a", "b"],
    ["--name=x"],
    ["--check=false"],
  ]) {
    assert.equal(switchesOnly(manifestCommand, rest), undefined, rest.join(" "));
  }
});

function executa(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "executa.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CI: "true", ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("executa manifest --check answers the same with and without the fast path", () => {
  const empty = mkdtempSync(join(tmpdir(), "executa-fast-"));
  const drifted = mkdtempSync(join(tmpdir(), "executa-fast-"));
  writeFileSync(join(drifted, "executa.json"), JSON.stringify({ tool_id: "t", type: "binary", entry: "missing" }));
  for (const args of [
    ["manifest", "--check", empty],
    ["manifest", "--check", "--json", empty],
    ["manifest", "--check", "--strict", drifted],
    ["manifest", "--check", "--json", drifted],
  ]) {
    const fast = executa(args);
    const slow = executa(args, { EXECUTA_NO_FAST_PATH: "1" });
    assert.notEqual(fast.code, 0, args.join(" "));
    assert.deepEqual(fast, slow, args.join(" "));
  }
});
