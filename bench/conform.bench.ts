/**
 * The conformance suite's cost. Issue 8: wall time and the host's peak RSS of `executa test` on a
 * healthy plugin, on a hostile one that prints a 1 GiB line, and (issue 22) on one whose describe
 * lists 100 000 tools, side by side. Issue 5: the suite
 * on a generated plugin per language (parallel sessions against one at a time), and fuzz frames
 * per second.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fuzzSession, generateCases, runChecks } from "../src/conform/index.js";
import { detectLaunch, prepareLaunch, Session, type LaunchSpec } from "../src/host/index.js";
import { watchMemory } from "../test/support/memory.js";
import { compileTs, fmt, median, ratio, REPO, scaffoldWithCli, table } from "./lib.js";

const work = mkdtempSync(join(tmpdir(), "executa-bench-conform-"));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FUZZ = Number(process.env.BENCH_FUZZ ?? 10_000);
const LANGS = (process.env.BENCH_LANGS ?? "ts,python,go").split(",").filter(Boolean);

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
  scaffoldWithCli(dir, lang);
  if (lang === "ts") compileTs(dir);
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

/** `executa test --json` on a plugin, as a user runs it: wall time and the process's peak RSS (VmHWM). */
function executaTest(
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ ms: number; peakMiB: number; statuses: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(REPO, "bin", "executa.js"), "test", "--json", "--", ...args], {
      stdio: ["ignore", "pipe", "ignore"],
      ...(env && { env: { ...process.env, ...env } }),
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const stopSampling = watchMemory(child.pid!, 20);
    child.on("close", () => {
      const peak = stopSampling();
      try {
        const report = JSON.parse(out) as { results: { status: string }[] };
        const count = (s: string) => report.results.filter((r) => r.status === s).length;
        resolve({
          ms: performance.now() - started,
          peakMiB: peak,
          statuses: `${count("pass")} pass, ${count("fail")} fail, ${count("warn")} warn, ${count("skip")} skip`,
        });
      } catch (error) {
        reject(new Error(`executa test printed no report: ${(error as Error).message}`));
      }
    });
  });
}

const PLUGINS = join(REPO, "test", "broken-plugins", "node");
const HOSTILE_ROUNDS = Number(process.env.BENCH_HOSTILE_ROUNDS ?? 2);
const healthy: Awaited<ReturnType<typeof executaTest>>[] = [];
const flooding: Awaited<ReturnType<typeof executaTest>>[] = [];
const many: Awaited<ReturnType<typeof executaTest>>[] = [];
const MANY_TOOLS = Number(process.env.BENCH_MANY_TOOLS ?? 100_000);
for (let i = 0; i < HOSTILE_ROUNDS; i++) {
  healthy.push(await executaTest([process.execPath, join(PLUGINS, "reference.mjs")]));
  flooding.push(await executaTest([process.execPath, join(PLUGINS, "hostile.mjs"), "flood"]));
  many.push(await executaTest([process.execPath, join(PLUGINS, "many-tools.mjs")], { MANY_TOOLS: String(MANY_TOOLS) }));
}
const hostileRows = [
  [
    "healthy (reference.mjs)",
    fmt(median(healthy.map((r) => r.ms))),
    median(healthy.map((r) => r.peakMiB)).toFixed(0),
    healthy[0]!.statuses,
  ],
  [
    "flooding (hostile.mjs flood: 1 GiB on one line per invoke)",
    fmt(median(flooding.map((r) => r.ms))),
    median(flooding.map((r) => r.peakMiB)).toFixed(0),
    flooding[0]!.statuses,
  ],
  [
    `${MANY_TOOLS} tools in describe (many-tools.mjs; the per-tool checks sample 200)`,
    fmt(median(many.map((r) => r.ms))),
    median(many.map((r) => r.peakMiB)).toFixed(0),
    many[0]!.statuses,
  ],
];
process.stdout.write(
  `executa test --json (every check, fuzz off), median of ${HOSTILE_ROUNDS}, run alternately. ${process.platform} ${process.arch}, Node ${process.version}.\n\n`,
);
process.stdout.write(table(["plugin", "wall time (ms)", "peak RSS of executa test (MiB)", "verdicts"], hostileRows));
process.stdout.write("\n");

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

if (rows.length === 0) process.exit(0);
process.stdout.write(
  `Full check suite on a generated plugin (fuzz off), median of ${ROUNDS}; fuzz: ${FUZZ} frames on one session.\n\n`,
);
process.stdout.write(
  table(["language", "suite, 4 sessions at once (ms)", "suite, 1 at a time (ms)", "speed-up", "fuzz frames/s"], rows),
);
