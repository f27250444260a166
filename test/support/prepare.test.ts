/**
 * npm's `prepare` (scripts/prepare.mjs) builds this package when npm installs it in its own folder,
 * and leaves a built checkout alone when another project links it in (create-executa run from a
 * source checkout): that build would delete dist/cli under every process running from it.
 * The package manager is a stand-in that records what it was asked to run.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { REPO_ROOT } from "../e2e/toolchain.js";

const work = mkdtempSync(join(tmpdir(), "executa-prepare-"));
after(() => rmSync(work, { recursive: true, force: true }));
const record = join(work, "ran.json");
const fakeNpm = join(work, "npm-cli.mjs");
writeFileSync(
  fakeNpm,
  `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() }));
process.exit(3);
`,
);

function prepare(initCwd: string | undefined, npmCommand = "install") {
  rmSync(record, { force: true });
  const { INIT_CWD: _, ...env } = process.env;
  const r = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "prepare.mjs")], {
    cwd: REPO_ROOT,
    env: { ...env, npm_execpath: fakeNpm, npm_command: npmCommand, ...(initCwd && { INIT_CWD: initCwd }) },
    encoding: "utf8",
  });
  const ran = existsSync(record)
    ? (JSON.parse(readFileSync(record, "utf8")) as { args: string[]; cwd: string })
    : undefined;
  return { status: r.status, stdout: r.stdout, ran };
}

test("installed in its own folder, with no INIT_CWD, or packed or published from anywhere: the package manager that runs it builds it, and its exit code is prepare's", () => {
  for (const [initCwd, command] of [
    [REPO_ROOT, "install"],
    [undefined, "install"],
    [work, "pack"],
    [work, "publish"],
  ] as const) {
    const r = prepare(initCwd, command);
    assert.deepEqual(r.ran, { args: ["run", "build"], cwd: REPO_ROOT }, `INIT_CWD=${initCwd}, npm ${command}`);
    assert.equal(r.status, 3);
  }
});

test("linked into another project while built: nothing is built, and it says how to rebuild", () => {
  const r = prepare(work);
  assert.equal(r.ran, undefined);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /linked into .* as built; npm run build in .* rebuilds it/);
});
