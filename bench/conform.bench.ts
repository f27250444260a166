/**
 * Issue 5's benchmark: the full conformance suite's wall time on a generated plugin per language
 * (parallel sessions against one at a time, side by side), and fuzz frames per second.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fuzzSession, generateCases, runChecks } from "../src/conform/index.js";
import { detectLaunch, prepareLaunch, Session, type LaunchSpec } from "../src/host/index.js";
import { fmt, median, ratio, table } from "./lib.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const work = mkdtempSync(join(tmpdir(), "executa-bench-conform-"));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FUZZ = Number(process.env.BENCH_FUZZ ?? 10_000);
const LANGS = (process.env.BENCH_LANGS ?? "ts,python,go").split(",");

function have(program: string, args = ["--version"]): boolean {
  try {
    execFileSync(program, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function scaffold(lang: string): string {
  const dir = join(work, `plugin-${lang}`);
  execFileSync(process.execPath, [join(REPO, "bin", "create-executa.js"), dir, "--name", "bench-plugin", "--lang", lang, "--no-install", "--no-git", "--json"], { stdio: "ignore" });
  if (lang === "ts") execFileSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--typeRoots", join(REPO, "node_modules", "@types")], { stdio: "inherit" });
  return dir;
}

async function suiteMs(launch: LaunchSpec, concurrency: number): Promise<number> {
  const report = await runChecks(launch, { concurrency });
  const failed = report.results.filter((r) => r.status === "fail");
  if (failed.length) throw new Error(`checks failed: ${failed.map((r) => `${r.id}: ${r.message}`).join("; ")}`);
  return report.ms ?? 0;
}

async function fuzzRate(launch: LaunchSpec): Promise<number> {
  const session = new Session(launch, { maxRecords: 100, recordChars: 100 });
  const manifest = (await session.describe(30_000)).frame.result as { tools?: [] };
  const stats = await fuzzSession(session, generateCases(FUZZ, 1, manifest.tools ?? []), 1);
  await session.dispose();
  if (stats.failures.length) throw new Error(stats.failures.join("; "));
  return stats.framesPerSecond;
}

const rows: (string | number)[][] = [];
for (const lang of LANGS) {
  if (lang === "go" && !have("go", ["version"])) {
    rows.push([lang, "skipped: go is not installed", "", "", ""]);
    continue;
  }
  if (lang === "python" && !have("python3")) {
    rows.push([lang, "skipped: python3 is not installed", "", "", ""]);
    continue;
  }
  const prepared = await prepareLaunch(await detectLaunch(scaffold(lang)));
  try {
    const parallel: number[] = [];
    const serial: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      parallel.push(await suiteMs(prepared.launch, 4));
      serial.push(await suiteMs(prepared.launch, 1));
    }
    const rate = median(await Promise.all([0].map(() => fuzzRate(prepared.launch))));
    rows.push([lang, fmt(median(parallel)), fmt(median(serial)), ratio(median(serial), median(parallel)), rate]);
  } finally {
    prepared.cleanup();
  }
}

process.stdout.write(`Full check suite (20 checks; fuzz off), median of ${ROUNDS}; fuzz: ${FUZZ} frames on one session. ${process.platform} ${process.arch}, Node ${process.version}.\n\n`);
process.stdout.write(table(["language", "suite, 4 sessions at once (ms)", "suite, 1 at a time (ms)", "speed-up", "fuzz frames/s"], rows));
