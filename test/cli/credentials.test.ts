/**
 * Credentials never only on a command line: `--credential NAME` reads $NAME, `--credentials-file`
 * reads a .env-style file, and `executa dev`, `inspect` and `test` all take both.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseCredentialsFile } from "../../src/common/credentials-file.js";
import { PLUGINS } from "../host/helpers.js";
import { EXECUTA } from "../workbench/inspect-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "executa-credentials-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const reference = join(PLUGINS, "node", "reference.mjs");
const sign = (secret: string) => createHmac("sha256", secret).update("m").digest("hex");

function dev(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(
    process.execPath,
    [
      EXECUTA,
      "dev",
      "--invoke",
      "sign",
      "--args",
      '{"message":"m"}',
      "--json",
      ...args,
      "--",
      process.execPath,
      reference,
    ],
    { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", REF_SECRET: "", ...env } },
  );
  return {
    code: r.status,
    json: r.stdout
      ? (JSON.parse(r.stdout) as {
          answer?: { data?: { signature?: string } };
          error?: { message: string; hint?: string };
        })
      : undefined,
    stderr: r.stderr,
  };
}

test("--credential NAME takes the value from the environment, and names the variable when it is missing", () => {
  const r = dev(["--credential", "REF_SECRET"], { REF_SECRET: "from-the-environment" });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json?.answer?.data?.signature, sign("from-the-environment"));
  const missing = dev(["--credential", "REF_SECRET"]);
  assert.equal(missing.code, 2);
  assert.match(missing.json?.error?.message ?? "", /--credential REF_SECRET: the environment has no REF_SECRET/);
  assert.match(missing.json?.error?.hint ?? "", /export REF_SECRET=/);
});

test("--credentials-file reads a .env-style file; --credential wins for a name in both; a bad line is located", () => {
  const file = join(dir, "dev.env");
  writeFileSync(file, '# the signing key\nexport REF_SECRET="from the file \\"quoted\\""\nOTHER=x # comment\n');
  const r = dev(["--credentials-file", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json?.answer?.data?.signature, sign('from the file "quoted"'));
  const both = dev(["--credentials-file", file, "--credential", "REF_SECRET"], { REF_SECRET: "env-wins" });
  assert.equal(both.json?.answer?.data?.signature, sign("env-wins"));
  writeFileSync(file, "REF_SECRET=ok\nthis is not a line\n");
  const bad = dev(["--credentials-file", file]);
  assert.equal(bad.code, 2);
  assert.match(bad.json?.error?.message ?? "", /dev\.env:2: not a NAME=value line/);
  for (const command of ["inspect", "test"]) {
    const r2 = spawnSync(
      process.execPath,
      [EXECUTA, command, "--credentials-file", file, "--", process.execPath, reference],
      { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    assert.equal(r2.status, 2, `${command}: ${r2.stderr}`);
    assert.match(r2.stderr, /dev\.env:2: not a NAME=value line/, command);
  }
});

test("the file format: comments, export, quotes, escapes, trailing comments", () => {
  assert.deepEqual(
    parseCredentialsFile(
      ["", "# c", "A=1", "export B='x # y' # z", 'C="a\\nb"', "D = spaced value  # note", "E=", "F=a#b"].join("\n"),
      "f",
    ),
    { A: "1", B: "x # y", C: "a\nb", D: "spaced value", E: "", F: "a#b" },
  );
  for (const bad of ["NOEQUALS", "1A=x", 'A="open', "A='x' y", 'A="\\q"'])
    assert.throws(() => parseCredentialsFile(bad, "f"), /f:1: not a NAME=value line/, bad);
});
