/**
 * The runtime contract's backpressure: while the host reads nothing, a flood of invokes whose
 * answers are large leaves the plugin's memory bounded, and every answer arrives once the host
 * reads again. The TypeScript plugin imports its tool module late here (EXECUTA_TEST_IMPORT_DELAY_MS),
 * as a module with a slow top-level await would: the flood reaches the tool's first invoke.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, test } from "node:test";
import type { LaunchSpec } from "../../src/host/index.js";
import { LineSplitter } from "../../src/host/lines.js";
import { memoryKiB } from "../support/memory.js";
import { requires } from "../support/requires.js";
import { goPlugin, pythonPlugin, tsPlugin } from "./helpers.js";

const ANSWERS = 400;
const ANSWER_BYTES = 400 * 1024;
const IMPORT_DELAY_MS = 300;
const ASKED_MIB = (ANSWERS * ANSWER_BYTES) / 2 ** 20;
/**
 * What the plugin may grow while the host reads nothing. The runtime holds 4 MiB of answers; the
 * rest is its collector's slack (Go's reaches 50 MiB under load). A runtime that held every answer
 * would grow by more than all of them.
 */
const GROWTH_BOUND_MIB = ASKED_MIB / 2;

const RUNTIMES: { name: string; launch: () => LaunchSpec; needs: ReturnType<typeof requires> }[] = [
  { name: "TypeScript", launch: tsPlugin, needs: requires() },
  { name: "Python", launch: pythonPlugin, needs: requires("python3") },
  { name: "Go", launch: goPlugin, needs: requires("go") },
];

/** Waits until the process uses under 20 ms of CPU in half a second: it does no more with what it was sent. */
async function untilIdle(pid: number): Promise<void> {
  const cpuTicks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in hundredths of a second
  };
  for (let last = cpuTicks(), now = last; ; last = now) {
    await sleep(500);
    now = cpuTicks();
    if (now - last < 2) return;
  }
}

/** The plugin's stdout as whole lines, and a wait for the first `count` of them. */
function lines(stdout: NodeJS.ReadableStream) {
  const got: string[] = [];
  let wake = () => {};
  const splitter = new LineSplitter((line) => got.push(line.toString("utf8")));
  stdout.on("data", (chunk: Buffer) => {
    splitter.push(chunk);
    wake();
  });
  return {
    got,
    async until(count: number): Promise<void> {
      while (got.length < count) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

for (const runtime of RUNTIMES) {
  describe(`${runtime.name} runtime: backpressure`, runtime.needs, () => {
    test(`${ANSWERS} answers of 400 KiB asked of a tool's first invoke while the host reads nothing: memory stays bounded, and all arrive once it reads`, async (t) => {
      const launch = runtime.launch();
      const child = spawn(launch.command, launch.args, {
        env: { ...(launch.env ?? process.env), EXECUTA_TEST_IMPORT_DELAY_MS: String(IMPORT_DELAY_MS) },
        stdio: ["pipe", "pipe", "inherit"],
      });
      try {
        const out = lines(child.stdout);
        const send = (frame: object) => child.stdin.write(JSON.stringify(frame) + "\n");
        send({ jsonrpc: "2.0", id: 0, method: "describe" });
        await out.until(1);
        const before = memoryKiB(child.pid!).rss / 1024;

        child.stdout.pause();
        for (let id = 1; id <= ANSWERS; id++)
          send({ jsonrpc: "2.0", id, method: "invoke", params: { tool: "big", arguments: { bytes: ANSWER_BYTES } } });
        await sleep(IMPORT_DELAY_MS + 200);
        await untilIdle(child.pid!);
        const grown = memoryKiB(child.pid!).peak / 1024 - before;
        t.diagnostic(`grew ${grown.toFixed(1)} MiB`);
        assert.ok(
          grown < GROWTH_BOUND_MIB,
          `the plugin grew ${grown.toFixed(1)} MiB while the host read nothing and ${ASKED_MIB.toFixed(0)} MiB of answers were asked (bound ${GROWTH_BOUND_MIB.toFixed(0)})`,
        );

        child.stdout.resume();
        send({ jsonrpc: "2.0", id: "after", method: "health" });
        await out.until(ANSWERS + 2);
        const answers = out.got
          .slice(1)
          .map((line) => JSON.parse(line) as { id: unknown; result?: { success: boolean; data: string } });
        const invokes = answers.filter((a) => a.id !== "after");
        assert.deepEqual(
          invokes.map((a) => a.id).sort((a, b) => Number(a) - Number(b)),
          Array.from({ length: ANSWERS }, (_, i) => i + 1),
        );
        for (const a of invokes) assert.equal(a.result?.data.length, ANSWER_BYTES, `answer ${a.id}`);
        assert.ok(
          answers.some((a) => a.id === "after"),
          "health is answered after the flood",
        );
      } finally {
        child.kill("SIGKILL");
      }
    });
  });
}
