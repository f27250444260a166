/**
 * Shared by the `executa init` tests: corpus plugins copied into temp folders (never written in
 * test/), the CLI run as a user runs it, a folder's bytes for "left as it was", and the built
 * artifact started and spoken to.
 */
import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { exec, which } from "../../src/common/exec.js";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { Session } from "../../src/host/index.js";

/** The runtimes are fetched once per machine and reused by every test file and run. */
process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");

export const CORPUS = join(PACKAGE_ROOT, "test", "plugins");
const BIN = join(PACKAGE_ROOT, "bin", "executa.js");

/** A fresh temp folder `<tmp>/executa-init-*\/<name>`; the caller removes its parent. */
export function tempFolder(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "executa-init-")), name);
  mkdirSync(dir);
  return dir;
}

/** Copies corpus files (relative to test/plugins) into a fresh folder named `name`, under new names when given. */
export function adoptable(name: string, files: Record<string, string>): string {
  const dir = tempFolder(name);
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    cpSync(join(CORPUS, from), join(dir, to), { recursive: true });
  }
  return dir;
}

/**
 * A Go folder with several `main` files, the way the public Go examples are laid out: two corpus
 * plugins side by side under one go.mod, and a helper file both of them compile with.
 */
export function goToolsFolder(dir: string): void {
  writeFileSync(join(dir, "go.mod"), "module example.com/gotools\n\ngo 1.21\n");
  cpSync(join(CORPUS, "go", "sampling-tool", "main.go"), join(dir, "sampling.go"));
  cpSync(join(CORPUS, "go", "github-token", "main.go"), join(dir, "github.go"));
  writeFileSync(
    join(dir, "channel.go"),
    'package main\n\n// Shared by every plugin of the folder.\nconst releaseChannel = "stable"\n',
  );
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The command and what it printed, for assertion messages. */
  shown: string;
}

/** `executa <args>` in `cwd`, as a user runs it (no terminal, CI set, no colour). */
export async function executa(cwd: string, ...args: string[]): Promise<CliRun> {
  const r = await exec(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, CI: "true", NO_COLOR: "1" },
    timeoutMs: 10 * 60_000,
  });
  return {
    code: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
    shown: `executa ${args.join(" ")} (exit ${r.code})\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
  };
}

/** `executa <args> --json`: exit code and the one object it printed. */
export async function executaJson<T = Record<string, unknown>>(
  cwd: string,
  ...args: string[]
): Promise<{ code: number | null; out: T; shown: string }> {
  const dashes = args.indexOf("--");
  const withJson = dashes < 0 ? [...args, "--json"] : [...args.slice(0, dashes), "--json", ...args.slice(dashes)];
  const r = await executa(cwd, ...withJson);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1, `expected one JSON object:\n${r.shown}`);
  return { code: r.code, out: JSON.parse(lines[0]!) as T, shown: r.shown };
}

/** Every file under `dir` with its bytes and mode: two snapshots are equal when nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at).sort()) {
      const path = join(at, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else out[relative(dir, path)] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(path).toString("base64")}`;
    }
  };
  walk(dir);
  return out;
}

export const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** actionlint on PATH, or where `go install` puts it. */
export async function actionlint(): Promise<string | undefined> {
  const onPath = which("actionlint");
  if (onPath) return onPath;
  if (!which("go")) return undefined;
  const gopath = (await exec("go", ["env", "GOPATH"])).stdout.trim();
  const installed = join(gopath, "bin", "actionlint");
  return gopath && existsSync(installed) ? installed : undefined;
}

/** actionlint finds nothing in the folder's workflow (skips, with the reason, where it is not installed and CI is unset). */
export async function assertActionlintClean(dir: string, skip: (reason: string) => void): Promise<void> {
  const linter = await actionlint();
  if (!linter) {
    if (process.env.CI)
      throw new Error(
        "actionlint is not installed: .ci/run installs it with `go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12`",
      );
    return skip("actionlint is not installed");
  }
  const r = await exec(linter, ["-no-color", join(".github", "workflows", "ci.yml")], { cwd: dir });
  assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
}

/**
 * Starts the built artifact, negotiates the protocol, asks describe and invokes one tool behind
 * the mock host; returns both answers.
 */
export async function runArtifact(
  path: string,
  tool: string,
  args: Record<string, unknown>,
  credentials?: Record<string, string>,
): Promise<{ describe: unknown; invoke: unknown }> {
  const session = new Session({ command: path, args: [], cwd: tmpdir() });
  try {
    await session.initialize();
    const describe = await session.describe();
    const invoke = await session.invoke(tool, args, { timeoutMs: 20_000, ...(credentials && { credentials }) });
    return {
      describe: "result" in describe.frame ? describe.frame.result : describe.frame,
      invoke: "result" in invoke.frame ? invoke.frame.result : invoke.frame,
    };
  } finally {
    await session.dispose();
  }
}

interface BuildJson {
  status: string;
  targets: Array<{ platform: string; file: string; runtime: string; verify: { status: string; failures?: string[] } }>;
  dist: string;
  notes: string[];
}

/**
 * After init: executa test, dev --describe, manifest --check (from the running plugin, and as the
 * project records it) and build all succeed without a hand edit, and the built artifact serves
 * manifest.json and runs `tool`. Returns the build report.
 */
export async function assertToolchainWorks(
  dir: string,
  tool: string,
  args: Record<string, unknown>,
  credentials?: Record<string, string>,
): Promise<BuildJson> {
  const manifest = readJson(join(dir, "manifest.json"));
  const test = await executaJson<{ status: string; results: Array<{ id: string; status: string }> }>(dir, "test");
  assert.equal(test.code, 0, test.shown);
  assert.equal(test.out.status, "ok");
  const dev = await executaJson<{ answer: Record<string, unknown> }>(dir, "dev", "--describe");
  assert.equal(dev.code, 0, dev.shown);
  assert.deepEqual(
    { name: manifest.name, ...dev.out.answer },
    manifest,
    "dev --describe serves what manifest.json holds",
  );
  for (const check of [["--check", "--from-plugin"], ["--check"]]) {
    const r = await executaJson<{ check: string }>(dir, "manifest", ...check);
    assert.equal(r.code, 0, r.shown);
    assert.equal(r.out.check, "in-sync", r.shown);
  }
  const build = await executaJson<BuildJson>(dir, "build");
  assert.equal(build.code, 0, build.shown);
  assert.equal(build.out.targets.length, 1);
  const [target] = build.out.targets;
  assert.equal(target!.verify.status, "passed", JSON.stringify(target!.verify));
  for (const file of ["SHA256SUMS", "sbom.cdx.json", "build.json"])
    assert.ok(existsSync(join(dir, "dist", file)), file);
  const ran = await runArtifact(join(dir, "dist", target!.file), tool, args, credentials);
  assert.deepEqual({ name: manifest.name, ...(ran.describe as object) }, manifest, "the artifact serves manifest.json");
  assert.equal((ran.invoke as { success?: unknown }).success, true, JSON.stringify(ran.invoke));
  return build.out;
}
