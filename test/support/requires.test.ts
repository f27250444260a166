/**
 * Under CI a missing tool fails the tests that need it, with its install hint; elsewhere they skip,
 * naming it. Proven on the Go tests run with a PATH that has no `go` on it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "../e2e/toolchain.js";
import { TOOLS } from "./requires.js";

const GO_FILES = [
  "test/runtimes/go/unit.test.js",
  "test/runtimes/go/vectors.test.js",
  "test/runtimes/go/host-services.test.js",
  "test/manifest/go.test.js",
].map((f) => join(REPO_ROOT, "dist", f));
const PATH_WITHOUT_GO = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => !existsSync(join(dir, "go")))
  .join(delimiter);

function runWithoutGo(ci: boolean) {
  // NODE_TEST_CONTEXT would make the child think it runs inside this test and skip its files.
  const { CI: _ci, GOROOT: _root, NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const r = spawnSync(process.execPath, ["--test", "--test-reporter=tap", ...GO_FILES], {
    env: { ...env, PATH: PATH_WITHOUT_GO, ...(ci && { CI: "true" }) },
    encoding: "utf8",
    timeout: 120_000,
  });
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(r.stdout)?.[1] ?? -1);
  return {
    code: r.status,
    out: r.stdout + r.stderr,
    pass: count("pass"),
    skipped: count("skipped"),
    failedOrCancelled: count("fail") + count("cancelled"),
  };
}

test("CI=true without go on PATH: the Go tests fail with the install hint, none skips or passes", () => {
  const r = runWithoutGo(true);
  assert.notEqual(r.code, 0, r.out);
  assert.equal(r.skipped, 0, r.out);
  assert.equal(r.pass, 0, r.out);
  assert.ok(r.failedOrCancelled > 0, r.out);
  const aborted = r.out.match(/failureType: 'testAborted'/g)?.length ?? 0;
  assert.ok(
    aborted >= GO_FILES.length,
    `${aborted} tests or suites were stopped for the missing tool, fewer than the ${GO_FILES.length} files:\n${r.out}`,
  );
  assert.ok(r.out.includes(`CI needs this test's tools: go is not installed (${TOOLS.go.install})`), r.out);
});

test("without CI and without go: the Go tests skip, naming go and how to install it", () => {
  const r = runWithoutGo(false);
  assert.equal(r.code, 0, r.out);
  assert.equal(r.failedOrCancelled, 0, r.out);
  assert.ok(r.skipped > 0, r.out);
  assert.equal(r.pass, 0, r.out);
  assert.match(
    r.out,
    new RegExp(`# SKIP go is not installed \\(${TOOLS.go.install.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)`),
    r.out,
  );
});
