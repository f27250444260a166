/**
 * The corpus: plugins written the way people write them (no runtime of ours), each with the
 * verdict the spec gives it per check (verdicts.json). Every plugin runs under the conformance
 * suite and its report must equal the table exactly. Hostile plugins run through `executa test`
 * in a child process, so that a host that is not yet safe cannot take this test process down
 * with it, and their safety outcome is asserted too (canaries, peak RSS, exit time, orphans).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { CHECKS, FUZZ_CHECK_ID, runChecks, type CheckResult } from "../../src/conform/index.js";
import { watchMemory } from "../support/memory.js";
import { has, requires } from "../support/requires.js";
import type { LaunchSpec } from "../../src/host/index.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CORPUS = join(REPO_ROOT, "test", "plugins");
const EXECUTA = join(REPO_ROOT, "bin", "executa.js");

type Status = "pass" | "fail" | "warn" | "skip";
type Expectation = Status | [Status, string];

interface SafetyExpectations {
  /** The canary files (one outside the temp folder, one inside it named like a response file) survive, unread. */
  canaries?: boolean;
  /** Peak RSS of the `executa test` process, in MiB. */
  maxRssMiB?: number;
  /** `executa test` must have exited within this many seconds. */
  exitWithinS?: number;
  /** Every process the plugin started (its pids are written to CORPUS_PID_DIR) is gone when `executa test` is. */
  noOrphans?: boolean;
  /** Files the plugin makes in its temp folder and points at: the report must say each was refused and left alone. */
  leftAlone?: string[];
}

interface PluginEntry {
  about: string;
  launch: string[];
  cwd?: string;
  /** Environment for the plugin; null removes a variable (as the Agent's user environment would lack it). */
  env?: Record<string, string | null>;
  via?: "runChecks" | "cli";
  safety?: SafetyExpectations;
  expect: Record<string, Expectation>;
}

interface Table {
  defaults: Record<string, Expectation>;
  plugins: Record<string, PluginEntry>;
}

const table = JSON.parse(readFileSync(join(CORPUS, "verdicts.json"), "utf8")) as Table;
/** Every check of the suite, in report order: a plugin is held to each (pass unless its entry or the defaults say otherwise). */
const ALL_IDS = [...CHECKS.map((c) => c.id), FUZZ_CHECK_ID];
const statusOf = (e: Expectation): Status => (Array.isArray(e) ? e[0] : e);

function expected(entry: PluginEntry): Record<string, Status> {
  const out: Record<string, Status> = {};
  for (const id of ALL_IDS) out[id] = statusOf(entry.expect[id] ?? table.defaults[id] ?? "pass");
  return out;
}


/** Go plugins are built once, into a temp folder removed at the end. */
const goBinaries = new Map<string, string>();
let goDir: string | undefined;

async function buildGo(dirs: string[]): Promise<void> {
  goDir = mkdtempSync(join(tmpdir(), "executa-corpus-go-"));
  const build = (dir: string) =>
    new Promise<void>((done, failed) => {
      const out = join(goDir!, dir.replace(/[^A-Za-z0-9]+/g, "-"));
      const child = spawn("go", ["build", "-o", out, "."], { cwd: join(CORPUS, dir), env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" }, stdio: ["ignore", "ignore", "pipe"] });
      let err = "";
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.on("close", (code) => (code === 0 ? (goBinaries.set(dir, out), done()) : failed(new Error(`go build in ${dir} failed: ${err}`))));
    });
  for (let i = 0; i < dirs.length; i += 2) await Promise.all(dirs.slice(i, i + 2).map(build));
}

function launchOf(entry: PluginEntry): LaunchSpec {
  const [command, ...args] = entry.launch;
  const cwd = entry.cwd ? join(CORPUS, entry.cwd) : CORPUS;
  if (command === "go") return { command: goBinaries.get(entry.cwd!)!, args: [], cwd };
  if (command === "node") return { command: process.execPath, args, cwd };
  return { command: command!, args, cwd };
}

// ── what hostile plugins are given, and what must survive them ─────────────────
const RUN = `${process.pid}-${Date.now().toString(36)}`;
const SECRET = `corpus canary ${RUN}: if you can read this in a report, the host followed a plugin's pointer`;
let canaryDir: string;
let pidDir: string;

/** Each plugin gets its own canaries, so one plugin's damage cannot be blamed on another. */
function canaries(name: string): { canary: string; tmpCanary: string } {
  const dir = join(canaryDir, name);
  const canary = join(dir, "secret.txt");
  const tmpCanary = join(tmpdir(), `executa-resp-corpus-canary-${name}-${RUN}.json`);
  if (!existsSync(dir)) {
    mkdirSync(dir);
    writeFileSync(canary, SECRET);
    writeFileSync(tmpCanary, JSON.stringify({ jsonrpc: "2.0", id: 900000, result: { success: true, data: SECRET } }));
  }
  return { canary, tmpCanary };
}

function pluginEnv(name: string, entry: PluginEntry): NodeJS.ProcessEnv {
  const { canary, tmpCanary } = canaries(name);
  const env: NodeJS.ProcessEnv = { CORPUS_CANARY: canary, CORPUS_TMP_CANARY: tmpCanary, CORPUS_PID_DIR: pidDir, CORPUS_RUN: RUN };
  for (const [key, value] of Object.entries(entry.env ?? {})) env[key] = value ?? undefined;
  return env;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function recordedPids(): number[] {
  return readdirSync(pidDir).flatMap((f) => readFileSync(join(pidDir, f), "utf8").split(/\s+/).filter(Boolean).map(Number));
}

interface CliRun {
  results: CheckResult[];
  stdout: string;
  seconds: number;
  peakRssMiB: number;
  timedOut: boolean;
}

/** `executa test --json -- <launch>` in a child process, with its peak RSS (VmHWM) sampled from /proc. */
function runCli(launch: LaunchSpec, env: NodeJS.ProcessEnv, limitS: number): Promise<CliRun> {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, [EXECUTA, "test", "--json", "--", launch.command, ...launch.args], {
      cwd: launch.cwd,
      env: { ...process.env, ...env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.resume();
    const stopSampling = watchMemory(child.pid!, 50);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limitS * 1000);
    child.on("close", () => {
      const peak = stopSampling();
      clearTimeout(timer);
      let results: CheckResult[] = [];
      try {
        results = (JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { results?: CheckResult[] }).results ?? [];
      } catch {
        // no report: compared below as every check missing
      }
      done({ results, stdout, seconds: (performance.now() - started) / 1000, peakRssMiB: Math.round(peak), timedOut });
    });
  });
}

function compare(name: string, entry: PluginEntry, results: CheckResult[]): void {
  const want = expected(entry);
  const got: Record<string, string> = {};
  for (const id of ALL_IDS) got[id] = results.find((r) => r.id === id)?.status ?? "(not reported)";
  const differences = ALL_IDS.filter((id) => got[id] !== want[id]).map((id) => {
    const r = results.find((x) => x.id === id);
    const why = entry.expect[id] ?? table.defaults[id];
    return `  ${id}: expected ${want[id]}${Array.isArray(why) ? ` (${why[1]})` : ""}, got ${got[id]}${r?.message ? `: ${r.message.split("\n")[0]!.slice(0, 240)}` : ""}`;
  });
  assert.deepEqual(got, want, `${name} (${entry.about}):\n${differences.join("\n")}`);
}

const entries = Object.entries(table.plugins);

describe("plugin corpus: every plugin gets exactly the verdicts of verdicts.json", { concurrency: 2 }, () => {
  before(async () => {
    canaryDir = mkdtempSync(join(REPO_ROOT, "dist", "corpus-canary-"));
    pidDir = join(canaryDir, "pids");
    mkdirSync(pidDir);
    const goDirs = entries.filter(([, e]) => e.launch[0] === "go").map(([, e]) => e.cwd!);
    if (has("go")) await buildGo(goDirs);
  });

  after(() => {
    if (pidDir && existsSync(pidDir)) for (const pid of recordedPids()) if (alive(pid)) process.kill(pid, "SIGKILL");
    for (const name of readdirSync(tmpdir())) if (name.startsWith("executa-resp-corpus-")) rmSync(join(tmpdir(), name), { force: true });
    if (canaryDir) rmSync(canaryDir, { recursive: true, force: true });
    if (goDir) rmSync(goDir, { recursive: true, force: true });
  });

  it("the table names only checks of the suite, and says why for every verdict other than pass", () => {
    for (const id of Object.keys(table.defaults)) assert.ok(ALL_IDS.includes(id), `defaults: unknown check id ${id}`);
    for (const [name, entry] of entries) {
      for (const id of Object.keys(entry.expect)) assert.ok(ALL_IDS.includes(id), `${name}: unknown check id ${id}`);
      for (const [id, e] of Object.entries(entry.expect)) {
        if (statusOf(e) !== "pass") assert.ok(Array.isArray(e) && e[1].length > 10, `${name}: ${id} is ${statusOf(e)} without a reason`);
      }
    }
    assert.ok(entries.length >= 25, `only ${entries.length} plugins`);
  });

  for (const [name, entry] of entries) {
    it(name, entry.launch[0] === "python3" || entry.launch[0] === "go" ? requires(entry.launch[0]) : {}, async (t) => {
      const launch = launchOf(entry);
      if (entry.via !== "cli") {
        const report = await runChecks(launch, { env: pluginEnv(name, entry) });
        compare(name, entry, report.results);
        return;
      }
      const safety = entry.safety ?? {};
      const env = pluginEnv(name, entry);
      const run = await runCli(launch, env, Math.max(safety.exitWithinS ?? 120, 5));
      const problems: string[] = [];
      if (run.timedOut || (safety.exitWithinS !== undefined && run.seconds > safety.exitWithinS)) {
        problems.push(`executa test took ${run.seconds.toFixed(1)} s${run.timedOut ? " and was killed" : ""}; it must exit within ${safety.exitWithinS} s`);
      }
      if (safety.maxRssMiB !== undefined && run.peakRssMiB > safety.maxRssMiB) problems.push(`executa test peaked at ${run.peakRssMiB} MiB RSS (limit ${safety.maxRssMiB} MiB)`);
      if (safety.canaries) {
        const { canary, tmpCanary } = canaries(name);
        if (!existsSync(canary) || readFileSync(canary, "utf8") !== SECRET) problems.push(`the canary outside the temp folder (${canary}) was deleted or changed`);
        if (!existsSync(tmpCanary) || !readFileSync(tmpCanary, "utf8").includes(SECRET)) problems.push(`the response-like canary in the temp folder (${tmpCanary}) was deleted or changed`);
        if (run.stdout.includes(SECRET)) problems.push("the report contains the canary's secret: the host read a file the plugin named outside the protocol's rules");
      }
      // The plugin makes these in its own temp folder, which the host creates per session and removes with it
      // (after the process group is gone); what the host did with the file itself is in the report.
      for (const file of safety.leftAlone ?? []) {
        const name = file.replace("{run}", RUN);
        const said = run.results.find((r) => r.id === "transport.file-safety")?.message ?? "";
        if (!new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\n]*the file was left alone`).test(said)) {
          problems.push(`the report does not say that ${name} was refused and left alone: ${said.slice(0, 300)}`);
        }
      }
      if (safety.noOrphans) {
        await new Promise((r) => setTimeout(r, 500));
        const left = recordedPids().filter(alive);
        if (left.length) problems.push(`process(es) the plugin started are still running after executa test exited: ${left.join(", ")}`);
      }
      let verdicts: string | undefined;
      try {
        compare(name, entry, run.results);
      } catch (error) {
        verdicts = (error as Error).message.split("\n").slice(0, 40).join("\n");
      }
      assert.deepEqual([...problems, ...(verdicts ? [verdicts] : [])], [], `${name}: ${[...problems, verdicts ?? ""].join("\n")}`);
    });
  }
});
