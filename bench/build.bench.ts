/**
 * `executa build`: build time per target and size; cold start (spawn -> describe) and invoke
 * throughput of the SEA artifact (with code cache), with a startup snapshot, and with bun, each
 * against `node bundle.cjs` in the same run; Go and Python artifacts beside them.
 */
import { cpSync, mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, bundle, type BuildReport } from "../src/builder/index.js";
import { exec, which } from "../src/common/exec.js";
import { hostPlatformKey } from "../src/protocol/index.js";
import { coldStartMs, median, roundTripsMs, type Launch } from "./lib.js";

process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");
const FIXTURES = join(process.cwd(), "test", "builder", "fixtures");
const host = hostPlatformKey()!;
const work = mkdtempSync(join(tmpdir(), "executa-build-bench-"));
const COLD_RUNS = 9;
const INVOKES = 300;

function copy(name: string, as: string): string {
  const dir = join(work, as);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** A plugin with real start-up work: a module, imported by main, that builds a table on load. */
function heavy(): string {
  const dir = copy("ts-plugin", "heavy");
  writeFileSync(join(dir, "src", "startup.ts"), [
    "// Start-up work: a word table built when the module loads.",
    "export const table = new Map<string, number>();",
    "for (let i = 0; i < 400_000; i++) table.set(`w${(i * 2654435761) % 1_000_003}`, i);",
    "export const digest = JSON.stringify([...table.keys()].slice(0, 50_000)).length;",
    "",
  ].join("\n"));
  writeFileSync(join(dir, "src", "executa.snapshot.ts"), 'import "./startup.js";\n');
  const main = readFileSync(join(dir, "src", "main.ts"), "utf8");
  writeFileSync(join(dir, "src", "main.ts"), 'import { digest } from "./startup.js";\n' + main + "void digest;\n");
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

const invoke = (i: number) => ({ jsonrpc: "2.0", id: i, method: "invoke", params: { tool: "echo", arguments: { text: `t${i}` } } });

async function throughput(launch: Launch): Promise<number> {
  return (INVOKES / (await roundTripsMs(launch, invoke, INVOKES))) * 1000;
}

const exeOf = (r: BuildReport) => join(r.dist, r.targets[0]!.file);
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

try {
  const light = copy("ts-plugin", "light");
  const steps: Array<[string, number]> = [];
  const stepTimer = async <T>(label: string, fn: () => Promise<T>) => {
    const [result, ms] = await timed(fn);
    steps.push([label, ms]);
    return result;
  };
  const targets = [host, "linux-aarch64", "darwin-arm64", "windows-x86_64"].filter((v, i, a) => a.indexOf(v) === i);
  const [all, allMs] = await timed(() => build({ skipManifestCheck: true, projectDir: light, targets, verify: false, step: stepTimer }));

  process.stdout.write(`### Build time per target (TS fixture, Node ${all.targets[0]!.runtime_version} SEA; runtimes cached)\n\n`);
  process.stdout.write("| step | time (s) | size (MiB) | archive (MiB) |\n|---|---:|---:|---:|\n");
  for (const [label, ms] of steps) {
    const t = all.targets.find((x) => label === `build ${x.platform}`);
    process.stdout.write(`| ${label} | ${(ms / 1000).toFixed(1)} | ${t ? mib(t.size) : ""} | ${t ? mib(t.archive.size) : ""} |\n`);
  }
  process.stdout.write(`| whole build (incl. archives, sums) | ${(allMs / 1000).toFixed(1)} | | |\n\n`);

  const rows: Array<{ name: string; coldMs: number; rps?: number; buildMs?: number; size?: number }> = [];
  const lightNode = await bundleLaunch(light);
  rows.push({ name: "node bundle.cjs", coldMs: await cold(lightNode), rps: await throughput(lightNode) });
  const sea: Launch = { command: join(all.dist, all.targets.find((t) => t.platform === host)!.file), args: [] };
  rows.push({ name: "SEA (code cache)", coldMs: await cold(sea), rps: await throughput(sea), size: all.targets[0]!.size });
  try {
    const [bun, bunMs] = await timed(() => build({ skipManifestCheck: true, projectDir: light, runtime: "bun", outDir: join(work, "bun"), verify: false }));
    const launch = { command: exeOf(bun), args: [] };
    rows.push({ name: "bun --compile", coldMs: await cold(launch), rps: await throughput(launch), buildMs: bunMs, size: bun.targets[0]!.size });
  } catch (error) {
    rows.push({ name: `bun --compile (failed: ${(error as Error).message.slice(0, 60)})`, coldMs: NaN });
  }
  if (which("go")) {
    const goDir = copy("go-plugin", "go");
    const [go, goMs] = await timed(() => build({ skipManifestCheck: true, projectDir: goDir, verify: false }));
    rows.push({ name: "Go", coldMs: await cold({ command: exeOf(go), args: [] }), buildMs: goMs, size: go.targets[0]!.size });
  }
  if ((await exec("python3", ["-m", "PyInstaller", "--version"])).code === 0) {
    const pyDir = copy("py-plugin", "py");
    const [py, pyMs] = await timed(() => build({ skipManifestCheck: true, projectDir: pyDir, verify: false }));
    rows.push({ name: "Python (PyInstaller)", coldMs: await cold({ command: exeOf(py), args: [] }), buildMs: pyMs, size: py.targets[0]!.size });
  }
  const base = rows[0]!.coldMs;
  process.stdout.write(`### Light plugin: cold start (spawn -> describe, median of ${COLD_RUNS}) and ${INVOKES} sequential invokes\n\n`);
  process.stdout.write("| artifact | cold start (ms) | vs node bundle.cjs | invokes/s | build (s) | size (MiB) |\n|---|---:|---:|---:|---:|---:|\n");
  for (const r of rows) {
    process.stdout.write(`| ${r.name} | ${r.coldMs.toFixed(1)} | ${(r.coldMs / base).toFixed(2)}x | ${r.rps ? r.rps.toFixed(0) : "-"} | ${r.buildMs ? (r.buildMs / 1000).toFixed(1) : "-"} | ${r.size ? mib(r.size) : "-"} |\n`);
  }

  const heavyDir = heavy();
  const heavyNode = await bundleLaunch(heavyDir);
  const [plain] = await timed(() => build({ skipManifestCheck: true, projectDir: heavyDir, outDir: join(work, "heavy-sea"), verify: false }));
  const [snap, snapMs] = await timed(() => build({ skipManifestCheck: true, projectDir: heavyDir, snapshot: true, outDir: join(work, "heavy-snap"), verify: false }));
  const h = [
    { name: "node bundle.cjs", ms: await cold(heavyNode) },
    { name: "SEA (code cache)", ms: await cold({ command: exeOf(plain), args: [] }) },
    { name: "SEA --snapshot", ms: await cold({ command: exeOf(snap), args: [] }) },
  ];
  process.stdout.write(`\n### Plugin with real start-up work (a 400k-entry table built on load): cold start\n\n`);
  process.stdout.write("| artifact | cold start (ms) | node bundle.cjs / this |\n|---|---:|---:|\n");
  for (const r of h) process.stdout.write(`| ${r.name} | ${r.ms.toFixed(1)} | ${(h[0]!.ms / r.ms).toFixed(2)}x faster |\n`);
  process.stdout.write(`\nsnapshot build: ${(snapMs / 1000).toFixed(1)} s, ${mib(statSync(exeOf(snap)).size)} MiB\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
