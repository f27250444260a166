/**
 * `executa build`: build time per target and size; cold start (spawn -> describe) and invoke
 * throughput of every artifact kind against its interpreter in the same run (`node bundle.cjs`,
 * `python3 -m <module>`): the SEA without and with V8's code cache, a startup snapshot, bun, Go,
 * and both PyInstaller layouts; and what `--reproducible-check` costs. Plugins are scaffolded.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, bundle, type BuildOptions, type BuildReport } from "../src/builder/index.js";
import { exec, which } from "../src/common/exec.js";
import { hostPlatformKey } from "../src/protocol/index.js";
import { makeSpec, scaffold } from "../src/scaffold/index.js";
import { coldStartMs, interleaved, median, roundTripsMs, startMs, type Launch } from "./lib.js";

process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");
const host = hostPlatformKey()!;
const work = mkdtempSync(join(tmpdir(), "executa-build-bench-"));
const COLD_RUNS = 9;
const INVOKES = 300;

async function project(lang: "ts" | "python" | "go", name: string): Promise<string> {
  const dir = join(work, name);
  await scaffold({ targetDir: dir, spec: makeSpec({ lang, name }), install: false, git: false, quiet: true });
  return dir;
}

/** A plugin with real start-up work: a module, imported by main, that builds a table on load. */
async function heavy(): Promise<string> {
  const dir = await project("ts", "heavy");
  writeFileSync(
    join(dir, "src", "startup.ts"),
    [
      "// Start-up work: a word table built when the module loads.",
      "export const table = new Map<string, number>();",
      "for (let i = 0; i < 400_000; i++) table.set(`w${(i * 2654435761) % 1_000_003}`, i);",
      "export const digest = JSON.stringify([...table.keys()].slice(0, 50_000)).length;",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "src", "executa.snapshot.ts"), 'import "./startup.js";\n');
  const main = readFileSync(join(dir, "src", "main.ts"), "utf8");
  // Appended: main.ts starts with a shebang line, and imports are hoisted anyway.
  writeFileSync(join(dir, "src", "main.ts"), main + 'import { digest } from "./startup.js";\nvoid digest;\n');
  return dir;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

async function bundleLaunch(dir: string): Promise<Launch> {
  const { code } = await bundle({ projectDir: dir });
  const file = join(dir, "bundle.cjs");
  writeFileSync(file, code);
  return { command: process.execPath, args: [file] };
}

async function cold(launch: Launch): Promise<number> {
  await coldStartMs(launch);
  const runs: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) runs.push(await coldStartMs(launch));
  return median(runs);
}

const invoke = (i: number) => ({
  jsonrpc: "2.0",
  id: i,
  method: "invoke",
  params: { tool: "text_stats", arguments: { text: `word ${i} word` } },
});

async function throughput(launch: Launch): Promise<number> {
  return (INVOKES / (await roundTripsMs(launch, invoke, INVOKES))) * 1000;
}

const exeOf = (r: BuildReport): Launch => ({ command: join(r.dist, r.targets[0]!.file), args: [] });
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
const s = (ms: number) => (ms / 1000).toFixed(1);

type PythonStart = { describe: number; firstInvoke: number };
const pythonStarts: Array<PythonStart & { name: string }> = [];

interface Row {
  name: string;
  coldMs: number;
  base: number;
  baseName: string;
  rps?: number;
  buildMs?: number;
  size?: number;
}

function printRows(rows: Row[]): void {
  process.stdout.write(
    "| artifact | cold start (ms) | vs its interpreter | invokes/s | build (s) | size (MiB) |\n|---|---:|---:|---:|---:|---:|\n",
  );
  for (const r of rows) {
    const vs = r.base === r.coldMs ? "(baseline)" : `${(r.coldMs / r.base).toFixed(2)}x ${r.baseName}`;
    process.stdout.write(
      `| ${r.name} | ${r.coldMs.toFixed(1)} | ${vs} | ${r.rps ? r.rps.toFixed(0) : "-"} | ${r.buildMs ? s(r.buildMs) : "-"} | ${r.size ? mib(r.size) : "-"} |\n`,
    );
  }
}

/** The Python rows: `python3 -m` and both PyInstaller layouts, started interleaved. False without PyInstaller. */
async function pythonRows(rows: Row[]): Promise<boolean> {
  const python = (await exec("python3", ["-c", "import sys; print(sys.executable)"])).stdout.trim();
  const pyinstaller = python !== "" && (await exec(python, ["-m", "PyInstaller", "--version"])).code === 0;
  if (!pyinstaller) return false;
  const pyDir = await project("python", "py-light");
  const moduleLaunch: Launch = { command: python, args: ["-m", "py_light"], cwd: pyDir };
  const built = [];
  for (const layout of ["onedir", "onefile"] as const) {
    const [report, ms] = await timed(() =>
      build({ projectDir: pyDir, pythonLayout: layout, outDir: join(work, `py-${layout}`), verify: false }),
    );
    built.push({
      layout,
      launch: exeOf(report),
      ms,
      size: layout === "onefile" ? report.targets[0]!.size : report.targets[0]!.archive.size,
    });
  }
  // Interleaved: each round starts the module, then each layout, so load on the machine hits all alike.
  const starts = await interleaved(
    COLD_RUNS,
    [moduleLaunch, ...built.map((b) => b.launch)].map((launch) => () => startMs(launch, invoke(1))),
  );
  const [moduleStart, ...layoutStarts] = starts as [PythonStart, ...PythonStart[]];
  const py = { base: moduleStart.describe, baseName: "python3 -m" };
  rows.push({ name: "python3 -m py_light", coldMs: moduleStart.describe, ...py, rps: await throughput(moduleLaunch) });
  pythonStarts.push({ name: "python3 -m py_light", ...moduleStart });
  for (const [i, b] of built.entries()) {
    const name = `PyInstaller ${b.layout}${b.layout === "onedir" ? " (default; size: archive)" : ""}`;
    rows.push({
      name,
      coldMs: layoutStarts[i]!.describe,
      ...py,
      rps: await throughput(b.launch),
      buildMs: b.ms,
      size: b.size,
    });
    pythonStarts.push({ name: `PyInstaller ${b.layout}`, ...layoutStarts[i]! });
  }
  return true;
}

function printPythonStarts(): void {
  if (!pythonStarts.length) return;
  const [base] = pythonStarts as [PythonStart & { name: string }];
  process.stdout.write(
    `\n### Python start, interleaved (median of ${COLD_RUNS}): spawn -> describe, and -> the first invoke's answer\n\n`,
  );
  process.stdout.write(
    "| start | describe (ms) | vs python3 -m | first invoke (ms) | vs python3 -m |\n|---|---:|---:|---:|---:|\n",
  );
  for (const r of pythonStarts) {
    process.stdout.write(
      `| ${r.name} | ${r.describe.toFixed(1)} | ${(r.describe / base.describe).toFixed(2)}x | ${r.firstInvoke.toFixed(1)} | ${(r.firstInvoke / base.firstInvoke).toFixed(2)}x |\n`,
    );
  }
}

/**
 * A TS build for all six Node targets, from an empty build cache and again from the one it left
 * (the same project, so the second build is what every later build of the plugin costs).
 */
async function buildCacheRows(): Promise<void> {
  const dir = await project("ts", "cached");
  const saved = process.env.EXECUTA_BUILD_CACHE_DIR;
  process.env.EXECUTA_BUILD_CACHE_DIR = mkdtempSync(join(work, "build-cache-"));
  const measure = async (label: string) => {
    const cpu = process.cpuUsage();
    const [, ms] = await timed(() =>
      build({ projectDir: dir, target: "all", outDir: join(dir, label), verify: false }),
    );
    const { user, system } = process.cpuUsage(cpu);
    return { label, ms, cpuMs: (user + system) / 1000 };
  };
  try {
    const rows = [await measure("empty"), await measure("kept")];
    process.stdout.write(
      "\n### The build cache: a TS build for all six Node targets (verification off), from an empty build cache, then from the one it left\n\n| build cache | time (s) | CPU of this process (s) | vs empty |\n|---|---:|---:|---:|\n",
    );
    for (const r of rows)
      process.stdout.write(`| ${r.label} | ${s(r.ms)} | ${s(r.cpuMs)} | ${(r.ms / rows[0]!.ms).toFixed(2)}x |\n`);
  } finally {
    if (saved === undefined) delete process.env.EXECUTA_BUILD_CACHE_DIR;
    else process.env.EXECUTA_BUILD_CACHE_DIR = saved;
  }
}

try {
  if (process.env.BENCH_BUILD_ONLY === "cache") {
    await buildCacheRows();
    process.exit(0);
  }
  if (process.env.BENCH_BUILD_ONLY === "python") {
    const rows: Row[] = [];
    await pythonRows(rows);
    printRows(rows);
    printPythonStarts();
    process.exit(0);
  }
  const light = await project("ts", "light");
  const steps: Array<[string, number]> = [];
  const stepTimer = async <T>(label: string, fn: () => Promise<T>) => {
    const [result, ms] = await timed(fn);
    steps.push([label, ms]);
    return result;
  };
  const targets = [host, "linux-aarch64", "darwin-arm64", "windows-x86_64"].filter((v, i, a) => a.indexOf(v) === i);
  const [all, allMs] = await timed(() => build({ projectDir: light, target: targets, verify: false, step: stepTimer }));

  process.stdout.write(
    `### Build time per target (scaffolded TS plugin, Node ${all.targets[0]!.runtime_version} SEA; runtimes cached)\n\n`,
  );
  process.stdout.write("| step | time (s) | size (MiB) | archive (MiB) |\n|---|---:|---:|---:|\n");
  for (const [label, ms] of steps) {
    const t = all.targets.find((x) => label === `build ${x.platform}`);
    process.stdout.write(`| ${label} | ${s(ms)} | ${t ? mib(t.size) : ""} | ${t ? mib(t.archive.size) : ""} |\n`);
  }
  process.stdout.write(`| whole build (manifest check, archives, sums, SBOM) | ${s(allMs)} | | |\n\n`);
  await buildCacheRows();

  const rows: Row[] = [];
  const lightNode = await bundleLaunch(light);
  const nodeMs = await cold(lightNode);
  const node = { base: nodeMs, baseName: "node bundle.cjs" };
  rows.push({ name: "node bundle.cjs", coldMs: nodeMs, ...node, rps: await throughput(lightNode) });
  const sea = exeOf(all);
  rows.push({
    name: "SEA (default: no code cache)",
    coldMs: await cold(sea),
    ...node,
    rps: await throughput(sea),
    size: all.targets[0]!.size,
  });
  const [cached, cachedMs] = await timed(() =>
    build({ projectDir: light, codeCache: true, outDir: join(work, "code-cache"), verify: false }),
  );
  rows.push({
    name: "SEA --code-cache",
    coldMs: await cold(exeOf(cached)),
    ...node,
    rps: await throughput(exeOf(cached)),
    buildMs: cachedMs,
    size: cached.targets[0]!.size,
  });
  try {
    const [bun, bunMs] = await timed(() =>
      build({ projectDir: light, runtime: "bun", outDir: join(work, "bun"), verify: false }),
    );
    rows.push({
      name: "bun --compile",
      coldMs: await cold(exeOf(bun)),
      ...node,
      rps: await throughput(exeOf(bun)),
      buildMs: bunMs,
      size: bun.targets[0]!.size,
    });
  } catch (error) {
    rows.push({ name: `bun --compile (failed: ${(error as Error).message.slice(0, 60)})`, coldMs: NaN, ...node });
  }
  if (which("go")) {
    const goDir = await project("go", "go-light");
    const [go, goMs] = await timed(() => build({ projectDir: goDir, verify: false }));
    rows.push({
      name: "Go",
      coldMs: await cold(exeOf(go)),
      ...node,
      rps: await throughput(exeOf(go)),
      buildMs: goMs,
      size: go.targets[0]!.size,
    });
  }
  const pyinstaller = await pythonRows(rows);
  process.stdout.write(
    `### Light plugin: cold start (spawn -> describe, median of ${COLD_RUNS}) and ${INVOKES} sequential invokes\n\n`,
  );
  printRows(rows);
  printPythonStarts();

  const checks: Array<[string, string, BuildOptions]> = [[`TS SEA, ${host}`, light, { projectDir: light }]];
  if (which("go"))
    checks.push(["Go, all 7 targets", join(work, "go-light"), { projectDir: join(work, "go-light"), target: "all" }]);
  if (pyinstaller) checks.push(["Python onedir", join(work, "py-light"), { projectDir: join(work, "py-light") }]);
  process.stdout.write(
    "\n### What --reproducible-check costs (verification off in both)\n\n| build | plain (s) | with --reproducible-check (s) | the check itself (s) | files compared | identical |\n|---|---:|---:|---:|---:|---|\n",
  );
  for (const [label, dir, options] of checks) {
    const [, plainMs] = await timed(() => build({ ...options, outDir: join(dir, "plain"), verify: false }));
    const [checked, checkedMs] = await timed(() =>
      build({ ...options, outDir: join(dir, "checked"), verify: false, reproducibleCheck: true }),
    );
    const r = checked.reproducible!;
    process.stdout.write(
      `| ${label} | ${s(plainMs)} | ${s(checkedMs)} | ${r.seconds.toFixed(1)} | ${r.files} | ${r.identical ? "yes" : `no (${r.differences.length} differ)`} |\n`,
    );
  }

  const heavyDir = await heavy();
  const heavyNode = await bundleLaunch(heavyDir);
  const [plain] = await timed(() => build({ projectDir: heavyDir, outDir: join(work, "heavy-sea"), verify: false }));
  const [withCache] = await timed(() =>
    build({ projectDir: heavyDir, codeCache: true, outDir: join(work, "heavy-cache"), verify: false }),
  );
  const [snap, snapMs] = await timed(() =>
    build({ projectDir: heavyDir, snapshot: true, outDir: join(work, "heavy-snap"), verify: false }),
  );
  const h = [
    { name: "node bundle.cjs", ms: await cold(heavyNode) },
    { name: "SEA (default)", ms: await cold(exeOf(plain)) },
    { name: "SEA --code-cache", ms: await cold(exeOf(withCache)) },
    { name: "SEA --snapshot", ms: await cold(exeOf(snap)) },
  ];
  process.stdout.write(`\n### Plugin with real start-up work (a 400k-entry table built on load): cold start\n\n`);
  process.stdout.write("| artifact | cold start (ms) | node bundle.cjs / this |\n|---|---:|---:|\n");
  for (const r of h)
    process.stdout.write(`| ${r.name} | ${r.ms.toFixed(1)} | ${(h[0]!.ms / r.ms).toFixed(2)}x faster |\n`);
  process.stdout.write(`\nsnapshot build: ${s(snapMs)} s, ${mib(statSync(exeOf(snap).command).size)} MiB\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
