/**
 * Issue 8 §1: a plugin is untrusted input. A canary outside the temp folder survives every hostile
 * file-transport pointer; a 1 GiB line keeps the host's memory bounded (and a 512 MiB line without
 * a newline does not crash it); a plugin whose child holds stdout open lets `executa test` exit
 * within seconds, with the whole process group gone.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/host/index.js";
import { EXECUTA, PLUGINS } from "./helpers.js";
import { watchMemory } from "../support/memory.js";

const HOSTILE = join(PLUGINS, "node", "hostile.mjs");
const LINUX = process.platform === "linux";
const SECRET = "hostile-canary-content-7f3a";

function canary(): string {
  const dir = mkdtempSync(join(tmpdir(), "executa-canary-"));
  const path = join(dir, "executa-resp-secret.json");
  writeFileSync(path, JSON.stringify({ jsonrpc: "2.0", id: 2, result: { success: true, data: SECRET } }));
  return path;
}

interface Run {
  code: number | null;
  report: { status: string; results?: { id: string; status: string; message?: string }[] };
  seconds: number;
  peakMiB: number;
}

/** `executa test --json` in a child, with its peak RSS (VmHWM) sampled from /proc. */
function executaTest(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [EXECUTA, "test", "--json", ...args], {
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.resume();
    const stopSampling = watchMemory(child.pid!, 50);
    child.on("close", (code) => {
      const peak = stopSampling();
      const lines = stdout.trim().split("\n");
      assert.equal(lines.length, 1, `--json prints exactly one line: ${stdout.slice(0, 500)}`);
      resolve({
        code,
        report: JSON.parse(lines[0]!),
        seconds: (performance.now() - started) / 1000,
        peakMiB: Math.round(peak),
      });
    });
  });
}

const statusOf = (run: Run, id: string) => run.report.results?.find((r) => r.id === id);

describe("hostile file-transport pointers", { skip: !LINUX && "POSIX file types and /proc" }, () => {
  for (const mode of ["absolute", "dotdot", "symlink", "fifo", "devzero", "hardlink", "badname", "huge", "subdir"]) {
    it(`${mode}: refused with its rule, and the canary outside survives unread`, async () => {
      const path = canary();
      const session = new Session({
        command: process.execPath,
        args: [HOSTILE, mode],
        env: { ...process.env, HOSTILE_CANARY: path },
      });
      try {
        const r = await session.invoke("fetch", {}, { timeoutMs: 10_000 });
        assert.equal(r.file?.refused, true, JSON.stringify(r.file));
        assert.match(r.file!.error!, /^refused: .*; the file was left alone$/);
        assert.doesNotMatch(JSON.stringify(r), new RegExp(SECRET));
        assert.equal(session.fileTransports.length, 1);
        assert.ok(session.alive, "the host reads on");
      } finally {
        await session.dispose();
      }
      assert.match(readFileSync(path, "utf8"), new RegExp(SECRET));
    });
  }

  it("unsolicited: a pointer for an id the host never sent is refused and counted as a stray answer", async () => {
    const path = canary();
    const session = new Session({
      command: process.execPath,
      args: [HOSTILE, "unsolicited"],
      env: { ...process.env, HOSTILE_CANARY: path },
    });
    try {
      await session.describe();
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(session.fileTransports[0]?.refused, true);
      assert.match(session.fileTransports[0]!.error!, /id 900000, which the host is not waiting for/);
      assert.deepEqual(
        session.strays.map((s) => [s.kind, s.frame.id]),
        [["unknown-id", 900000]],
      );
    } finally {
      await session.dispose();
    }
    assert.match(readFileSync(path, "utf8"), new RegExp(SECRET));
  });

  it("executa test reports the refused pointer under transport.file-safety, never the file's content", async () => {
    const path = canary();
    const run = await executaTest(["--", process.execPath, HOSTILE, "absolute"], { HOSTILE_CANARY: path });
    assert.equal(run.code, 1);
    assert.equal(statusOf(run, "transport.file-safety")?.status, "fail");
    assert.match(statusOf(run, "transport.file-safety")!.message!, /not directly inside the plugin's temp folder/);
    assert.doesNotMatch(JSON.stringify(run.report), new RegExp(SECRET));
    assert.match(readFileSync(path, "utf8"), new RegExp(SECRET));
  });
});

describe("bounded memory", { skip: !LINUX && "peak RSS is read from /proc" }, () => {
  it("a 1 GiB stdout line is cut and reported, the answer after it arrives, and the host stays under 300 MiB", async () => {
    const run = await executaTest([
      "--only",
      "invoke.envelope,stdout.frames-only",
      "--",
      process.execPath,
      HOSTILE,
      "flood",
    ]);
    assert.equal(statusOf(run, "invoke.envelope")?.status, "pass", JSON.stringify(run.report));
    assert.equal(statusOf(run, "stdout.frames-only")?.status, "fail");
    assert.match(
      statusOf(run, "stdout.frames-only")!.message!,
      /a line of 1073741824 bytes, over the 16 MiB limit \(cut, not read\)/,
    );
    assert.ok(run.peakMiB < 300, `peak RSS ${run.peakMiB} MiB`);
  });

  // 600 MiB of stray answers pass through (garbage the collector takes its time over: about 250 MiB
  // at the peak); were they kept, the host would pass 700 MiB.
  it("1 GiB of stderr and 600 MiB of stray answers keep the host under 400 MiB", async () => {
    const run = await executaTest([
      "--only",
      "describe,stdout.frames-only",
      "--",
      process.execPath,
      HOSTILE,
      "noise-flood",
    ]);
    assert.equal(statusOf(run, "stdout.frames-only")?.status, "pass", "every line was a JSON-RPC frame");
    assert.ok(statusOf(run, "describe"), JSON.stringify(run.report));
    assert.ok(run.peakMiB < 400, `peak RSS ${run.peakMiB} MiB`);
  });

  it("a 512 MiB line without a newline, then an exit, is reported without a crash", async () => {
    const run = await executaTest(
      ["--only", "invoke.envelope,stdout.frames-only", "--", process.execPath, HOSTILE, "flood-eof"],
      { FLOOD_MIB: "512" },
    );
    assert.equal(run.code, 1);
    assert.equal(run.report.status, "failed");
    assert.equal(statusOf(run, "invoke.envelope")?.status, "fail");
    assert.match(
      statusOf(run, "stdout.frames-only")!.message!,
      /536870912 bytes without a newline before stdout ended/,
    );
    assert.ok(run.peakMiB < 300, `peak RSS ${run.peakMiB} MiB`);
  });
});

describe("process groups", { skip: !LINUX && "process groups and /proc" }, () => {
  it("a child holding stdout open neither keeps executa test waiting nor outlives it", async () => {
    const pids = join(mkdtempSync(join(tmpdir(), "executa-pids-")), "pids");
    writeFileSync(pids, "");
    const run = await executaTest(["--", process.execPath, HOSTILE, "grandchild"], { HOSTILE_PIDS: pids });
    assert.ok(run.seconds < 30, `took ${run.seconds.toFixed(1)} s`);
    assert.equal(
      run.code,
      0,
      JSON.stringify(run.report.results?.filter((r) => r.status !== "pass" && r.status !== "skip")),
    );
    const orphans = statusOf(run, "lifecycle.orphans")!;
    assert.equal(orphans.status, "warn");
    assert.match(orphans.message!, /the plugin exited, but a child it started kept stdout open/);
    const started = readFileSync(pids, "utf8").split("\n").filter(Boolean).map(Number);
    assert.ok(started.length >= 10, `one sleep per session: ${started.length}`);
    const alive = started.filter(
      (pid) => existsSync(`/proc/${pid}`) && !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, "utf8")),
    );
    assert.deepEqual(alive, [], "every sleep the plugin started is gone");
  });
});
