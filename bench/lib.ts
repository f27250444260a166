/** Small helpers the benchmarks share: timing, plugin round trips, tables. */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { memoryKiB } from "../test/support/memory.js";

/** This repository (the benchmarks run from dist/bench/). */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Scaffolds a plugin named bench-plugin into `dir` with the CLI, as a user does (no install, no git); returns the milliseconds it took. */
export function scaffoldWithCli(dir: string, lang: string): number {
  const start = performance.now();
  execFileSync(
    process.execPath,
    [
      join(REPO, "bin", "create-executa.js"),
      dir,
      "--name",
      "bench-plugin",
      "--lang",
      lang,
      "--no-install",
      "--no-git",
      "--json",
    ],
    { stdio: "ignore" },
  );
  return performance.now() - start;
}

/** Compiles a scaffolded TypeScript plugin with this repository's tsc and types (it has no node_modules). */
export function compileTs(dir: string): void {
  execFileSync(
    process.execPath,
    [
      join(REPO, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      dir,
      "--typeRoots",
      join(REPO, "node_modules", "@types"),
    ],
    { stdio: "inherit" },
  );
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Launch {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** A spawned plugin with a line reader: `send` a frame, `next` resolves with the next stdout line. */
export class LinePlugin {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiting: ((line: string) => void)[] = [];
  private lines: string[] = [];

  constructor(launch: Launch) {
    this.child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: { ...process.env, ...launch.env } });
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const waiter = this.waiting.shift();
        if (waiter) waiter(line);
        else this.lines.push(line);
      }
    });
    this.child.stderr.resume();
  }

  send(frame: object): void {
    this.child.stdin.write(JSON.stringify(frame) + "\n");
  }

  next(): Promise<string> {
    const line = this.lines.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => this.waiting.push(resolve));
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    await exited;
  }
}

/** Milliseconds from spawn to the describe answer. */
export async function coldStartMs(launch: Launch): Promise<number> {
  const start = performance.now();
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 1, method: "describe" });
  const line = await plugin.next();
  const elapsed = performance.now() - start;
  if (!JSON.parse(line).result) throw new Error(`describe failed: ${line}`);
  await plugin.close();
  return elapsed;
}

/** Milliseconds from spawn to the describe answer, and to the answer of a first invoke sent after it. */
export async function startMs(launch: Launch, invoke: object): Promise<{ describe: number; firstInvoke: number }> {
  const start = performance.now();
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 1, method: "describe" });
  if (!JSON.parse(await plugin.next()).result) throw new Error("describe failed");
  const describe = performance.now() - start;
  plugin.send(invoke);
  const line = await plugin.next();
  const firstInvoke = performance.now() - start;
  if (!JSON.parse(line).result) throw new Error(`invoke failed: ${line}`);
  await plugin.close();
  return { describe, firstInvoke };
}

/** `count` sequential round trips of one frame: their milliseconds, and the plugin's memory after them (Linux). */
export async function roundTrips(
  launch: Launch,
  frame: (i: number) => object,
  count: number,
): Promise<{ ms: number; rss: number; peak: number }> {
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 0, method: "describe" });
  await plugin.next();
  const start = performance.now();
  for (let i = 1; i <= count; i++) {
    plugin.send(frame(i));
    const line = await plugin.next();
    if (i === 1 && JSON.parse(line).error) throw new Error(`invoke failed: ${line}`);
  }
  const ms = performance.now() - start;
  const memory = process.platform === "linux" ? memoryKiB(plugin.child.pid!) : { rss: NaN, peak: NaN };
  await plugin.close();
  return { ms, ...memory };
}

/** Milliseconds for `count` sequential round trips of one frame. */
export async function roundTripsMs(launch: Launch, frame: (i: number) => object, count: number): Promise<number> {
  return (await roundTrips(launch, frame, count)).ms;
}

/** Runs each measure in turn, `rounds` times over (interleaved, so load hits all alike); the medians of each. */
export async function interleaved<T extends Record<string, number>>(
  rounds: number,
  measures: Array<() => Promise<T>>,
): Promise<T[]> {
  const samples: T[][] = measures.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [j, measure] of measures.entries()) samples[j]!.push(await measure());
  }
  return samples.map(
    (runs) => Object.fromEntries(Object.keys(runs[0]!).map((k) => [k, median(runs.map((r) => r[k]!))])) as T,
  );
}

/** Runs a and b alternately `rounds` times and returns both medians. */
export async function sideBySide(
  rounds: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
): Promise<[number, number]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [median(as), median(bs)];
}

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n") + "\n";
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
