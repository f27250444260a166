/**
 * No command leaves temp files or partial outputs behind, whether it ends normally or is stopped
 * by Ctrl-C (SIGINT) or SIGTERM mid-work. Each run gets a private TMPDIR, so what is left in it is
 * what that run left.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { scaffoldProject } from "../builder/helpers.js";

const EXECUTA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "executa.js");

interface Run {
  child: ChildProcess;
  tmp: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], cwd: string): Run {
  const tmp = mkdtempSync(join(tmpdir(), "executa-leftovers-"));
  const child = spawn(process.execPath, [EXECUTA, ...args], {
    cwd,
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: "1", CI: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, tmp, output: () => output, exited };
}

async function until(what: string, ready: () => boolean, run: Run, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end || run.child.exitCode !== null) throw new Error(`never saw ${what}; output:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The first `.tmp-` file created in `dist`. */
function firstPartial(dist: string): { seen: Promise<void>; close: () => void } {
  let resolve!: () => void;
  const seen = new Promise<void>((r) => (resolve = r));
  const watcher = watch(dist, (_event, name) => {
    if (name?.includes(".tmp-")) resolve();
  });
  return { seen, close: () => watcher.close() };
}

const entries = (dir: string) => (existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]) : []);
const partials = (dist: string) => entries(dist).filter((name) => name.includes(".tmp-"));

describe("leftovers", { timeout: 300_000 }, () => {
  test("an interrupted build leaves no dist/*.tmp-* and no temp folder", async () => {
    const dir = await scaffoldProject("ts", "leftover-build");
    const dist = join(dir, "dist");
    mkdirSync(dist);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      // Watched, not polled: an artifact is written in a fraction of a second. Three targets, so the
      // build is still at work when the signal comes.
      const partial = firstPartial(dist);
      const run = start(["build", "--no-verify", "--target", "linux-x86_64,linux-aarch64,darwin-arm64"], dir);
      await Promise.race([
        partial.seen,
        run.exited.then(() => {
          throw new Error(`never saw a partial artifact in dist/; output:\n${run.output()}`);
        }),
      ]).finally(partial.close);
      run.child.kill(signal);
      const exit = await run.exited;
      assert.equal(exit.signal, signal, run.output());
      assert.deepEqual(partials(dist), [], `${signal}: partial outputs left in dist/`);
      assert.deepEqual(entries(run.tmp), [], `${signal}: temp files left`);
    }
  });

  test("an interrupted test run leaves no launch or session folder", async () => {
    const dir = await scaffoldProject("ts", "leftover-test");
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const run = start(["test"], dir);
      await until("a session folder", () => entries(run.tmp).some((name) => name.startsWith("executa-session-")), run);
      run.child.kill(signal);
      const exit = await run.exited;
      assert.deepEqual(
        entries(run.tmp),
        [],
        `${signal}: temp files left (${JSON.stringify(exit)}); output:\n${run.output()}`,
      );
    }
  });

  test("dev leaves no temp folder after quit, or after Ctrl-C", async () => {
    const dir = await scaffoldProject("ts", "leftover-dev");
    const quit = start(["dev"], dir);
    quit.child.stdin!.end("describe\nquit\n");
    assert.equal((await quit.exited).code, 0, quit.output());
    assert.deepEqual(entries(quit.tmp), [], "after quit: temp files left");

    const interrupted = start(["dev"], dir);
    await until(
      "a session folder",
      () => entries(interrupted.tmp).some((name) => name.startsWith("executa-session-")),
      interrupted,
    );
    interrupted.child.kill("SIGINT");
    const exit = await interrupted.exited;
    assert.deepEqual(
      entries(interrupted.tmp),
      [],
      `after SIGINT: temp files left (${JSON.stringify(exit)}); output:\n${interrupted.output()}`,
    );
  });

  test("inspect leaves no temp folder after Ctrl-C or SIGTERM", async () => {
    const dir = await scaffoldProject("ts", "leftover-inspect");
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const run = start(["inspect"], dir);
      await until("the inspector's address", () => /http:\/\/127\.0\.0\.1:\d+/.test(run.output()), run);
      await until("a session folder", () => entries(run.tmp).some((name) => name.startsWith("executa-session-")), run);
      run.child.kill(signal);
      await run.exited;
      assert.deepEqual(entries(run.tmp), [], `${signal}: temp files left`);
    }
  });
});
