/** `executa manifest --check --against` end to end: a real git history with v* tags, and a file. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { tsProject } from "./helpers.js";

const BIN = join(PACKAGE_ROOT, "bin", "executa.js");

function run(dir: string, command: string, args: string[]) {
  const r = spawnSync(command, args, {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      NO_COLOR: "1",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const executa = (dir: string, ...args: string[]) => run(dir, process.execPath, [BIN, "manifest", ...args]);
const git = (dir: string, ...args: string[]) => assert.equal(run(dir, "git", args).code, 0, `git ${args.join(" ")}`);

const tools = (name: string, extra = "") => `import type { Integer } from "./executa/index.js";
/**
 * Add two numbers.
 * @tool
 */
export function ${name}(args: {
  /** The first. */
  a: Integer;
  /** The second. */
  b?: Integer;${extra}
}) { return args.a + (args.b ?? 0); }
`;

function release(dir: string, version: string, source: string): void {
  writeFileSync(join(dir, "src/tools.ts"), source);
  writeFileSync(
    join(dir, "executa.json"),
    JSON.stringify(
      { tool_id: "tool-dev-fixture", type: "node", version, display_name: "Fixture", description: "A fixture plugin." },
      null,
      2,
    ),
  );
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fixture", version, type: "module" }));
  const written = executa(dir);
  assert.equal(written.code, 0, written.stderr);
}

test("--against with no ref: nothing to compare before the first v* tag; then the newest tag, classified, with the bump it needs", () => {
  const dir = tsProject({ "src/tools.ts": tools("add") });
  release(dir, "1.0.0", tools("add"));
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "1.0.0");
  const first = executa(dir, "--check", "--against");
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(first.stdout, /no v\* tag yet/);
  git(dir, "tag", "v1.0.0");
  release(dir, "1.1.0", tools("add", "\n  /** Rounding. */\n  round?: boolean;"));
  git(dir, "commit", "-qam", "1.1.0");
  git(dir, "tag", "v1.1.0");

  release(dir, "1.2.0", tools("sum"));
  const renamed = executa(dir, "--check", "--against");
  assert.equal(renamed.code, 1, renamed.stdout + renamed.stderr);
  assert.match(renamed.stdout, /Against v1\.1\.0 \(released 1\.1\.0, executa\.json 1\.2\.0\)/);
  assert.match(renamed.stdout, /breaking\s+tool 'add' renamed to 'sum'\s+\(needs 2\.0\.0\)/);
  assert.match(
    renamed.stdout,
    /does not carry the major bump these changes need: set executa\.json's version to 2\.0\.0 or later/,
  );

  const json = executa(dir, "--check", "--against", "v1.0.0", "--json");
  assert.equal(json.code, 1);
  const body = JSON.parse(json.stdout) as {
    status: string;
    against: {
      against: string;
      ok: boolean;
      required_bump: string;
      changes: Array<{ class: string; kind: string; needs: string }>;
    };
  };
  assert.equal(body.status, "failed");
  assert.equal(body.against.against, "v1.0.0");
  assert.equal(body.against.required_bump, "major");
  assert.deepEqual(
    body.against.changes.map((c) => [c.class, c.kind, c.needs]),
    [["breaking", "tool-renamed", "2.0.0"]],
  );

  release(dir, "2.0.0", tools("sum"));
  const bumped = executa(dir, "--check", "--against");
  assert.equal(bumped.code, 0, bumped.stdout);
  assert.match(bumped.stdout, /version 2\.0\.0 carries the bump the changes need \(major\)/);
});

test("--against a file: inside the project or the temp folder only; a bad ref says how to fetch tags", () => {
  const dir = tsProject({ "src/tools.ts": tools("add") });
  release(dir, "1.0.0", tools("add"));
  mkdirSync(join(dir, "released"));
  copyFileSync(join(dir, "manifest.json"), join(dir, "released", "manifest.json"));
  release(dir, "1.0.1", tools("add", "\n  /** Rounding. */\n  round?: boolean;"));
  const minor = executa(dir, "--check", "--against", "released/manifest.json");
  assert.equal(minor.code, 1);
  assert.match(minor.stdout, /compatible\s+tool 'add': parameter 'round' added \(boolean\)\s+\(needs 1\.1\.0\)/);

  const outside = PACKAGE_ROOT.startsWith(tmpdir()) ? "/etc/passwd" : join(PACKAGE_ROOT, "package.json"); // a clone may live in the temp folder
  assert.ok(!outside.startsWith(tmpdir()));
  const refused = executa(dir, "--check", "--against", outside);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /outside the project and the temp folder, so it is not read/);

  const noRef = executa(dir, "--check", "--against", "v9.9.9");
  assert.equal(noRef.code, 2);
  assert.match(noRef.stderr, /no such file, and no such git ref/);
  assert.match(noRef.stderr, /fetch-depth: 0/);
  const option = executa(dir, "--check", "--against=--output=x");
  assert.equal(option.code, 2);
  assert.match(option.stderr, /neither a file nor a git ref/);
});
