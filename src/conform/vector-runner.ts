/**
 * Plays one runtime vector against a plugin, on the host's Session: sends its frames, answers
 * reverse requests (scripted rules first, then the mock host), checks every frame the plugin
 * writes against the vector's patterns, and the process's exit. Every vector also checks that
 * stdout carried frames only and that no file-transport file was left behind.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { isFileTransportPointer, MockHost, Session, type ActiveInvoke, type LaunchSpec, type ReverseContext } from "../host/index.js";
import { expandSendValue, mismatch, serialiseFrame, unorderedMismatch, type MatchContext } from "./vector-match.js";
import type { HostRule, RawPart, Step, Vector } from "./vectors.js";

export interface RunVectorOptions {
  /** What `"$manifest"` stands for (the plugin's manifest.json, parsed). */
  manifest?: unknown;
  /** Multiplies every time limit (slow machines, emulators); default 1. */
  timeScale?: number;
}

export interface VectorResult {
  id: string;
  ok: boolean;
  /** Why it failed, with the frames that show it. */
  failure?: string;
  ms: number;
}

interface Received {
  frame: Record<string, unknown>;
  via: "inline" | "file";
  /** The pointer frame, when the answer came by file transport. */
  pointer?: Record<string, unknown>;
  /** Permission bits of the file-transport file, seen before the host read it. */
  mode?: number;
  fileError?: string;
  deleted?: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FILE_NAME = /(^|[\\/])executa-resp-[0-9a-f]{32}\.json$/;

class Failure extends Error {}

/** Answers reverse requests: the vector's rules first, else the mock host with the invokes this runner sent. */
class ScriptedHost extends MockHost {
  constructor(private readonly rules: HostRule[], private readonly active: Map<string, ActiveInvoke>) {
    super({ sampling: { kind: "canned", text: "mock reply" } });
  }

  override handle(frame: Record<string, unknown>, _ctx: ReverseContext) {
    const rule = this.rules.find((r) => r.method === frame.method && (r.params === undefined || mismatch(r.params, frame.params) === undefined));
    if (rule) return ("error" in rule ? { error: rule.error } : { result: rule.result }) as ReturnType<MockHost["handle"]>;
    // The plugin decides whether it may send a reverse request; the host routes it by invoke id.
    return super.handle(frame, { negotiatedV2: true, hostCapabilities: undefined, activeInvokes: this.active });
  }
}

function rawBytes(parts: RawPart[]): Buffer {
  return Buffer.concat(
    parts.map((p) => {
      if (typeof p === "string") return Buffer.from(p);
      if ("hex" in p) return Buffer.from(p.hex, "hex");
      const unit = Buffer.from(p.repeat);
      return Buffer.alloc(p.bytes, unit);
    }),
  );
}

const brief = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

/** Starts the plugin for one vector, plays it, and stops the plugin. */
export async function runVector(vector: Vector, launch: LaunchSpec, options: RunVectorOptions = {}): Promise<VectorResult> {
  const started = performance.now();
  const scale = options.timeScale ?? 1;
  const ctx: MatchContext = { manifest: options.manifest };
  const scratch = mkdtempSync(join(tmpdir(), "executa-vector-"));
  const env: NodeJS.ProcessEnv = { ...vector.env };
  if (vector.capabilities) env.EXECUTA_TEST_CAPABILITIES = JSON.stringify(vector.capabilities);
  let launchHere: LaunchSpec = launch;
  let tmpToCheck: string | undefined;
  if (vector.tmpdir === "relative") {
    mkdirSync(join(scratch, "tmp"));
    launchHere = { ...launch, cwd: scratch };
    env.TMPDIR = env.TEMP = env.TMP = "tmp";
    tmpToCheck = join(scratch, "tmp");
  } else if (vector.tmpdir === "unwritable") {
    closeSync(openSync(join(scratch, "a-file"), "w"));
    env.TMPDIR = env.TEMP = env.TMP = join(scratch, "a-file", "tmp"); // under a file: nothing can be created there
  }
  if (vector.file_size_limit !== undefined) {
    const blocks = Math.max(1, Math.floor(vector.file_size_limit / 512));
    launchHere = { ...launchHere, command: "/bin/sh", args: ["-c", `ulimit -f ${blocks} && exec "$0" "$@"`, launch.command, ...launch.args] };
  }

  const active = new Map<string, ActiveInvoke>();
  const received: Promise<Received>[] = [];
  const log: string[] = [];
  let session: Session | undefined;
  const onLine = (text: string) => {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return; // the session counts it as noise
    }
    if (!isObj(frame)) return;
    log.push(`<- ${brief(text)}`);
    if (!("method" in frame)) {
      for (const [invokeId, a] of active) if (a.requestId === frame.id) active.delete(invokeId);
    }
    if (!isFileTransportPointer(frame)) {
      received.push(Promise.resolve({ frame, via: "inline" }));
      return;
    }
    const path = String(frame.__file_transport);
    let mode: number | undefined;
    try {
      if (resolve(path).startsWith(tmpdir()) || (tmpToCheck && resolve(path).startsWith(scratch))) mode = statSync(path).mode & 0o777;
    } catch {
      // the host's read reports it
    }
    received.push(
      (async () => {
        const deadline = performance.now() + 10_000 * scale;
        for (;;) {
          const read = session?.fileTransports.find((f) => f.path === path);
          if (read) {
            const inner = read.frame ?? { unreadable: read.error };
            return { frame: inner, via: "file", pointer: frame, ...(mode !== undefined && { mode }), ...(read.error && { fileError: read.error }), deleted: read.deleted };
          }
          if (performance.now() > deadline) return { frame: { unreadable: "the host never finished reading the file" }, via: "file", pointer: frame };
          await sleep(5);
        }
      })(),
    );
  };

  session = new Session(launchHere, {
    mockHost: new ScriptedHost(vector.host ?? [], active),
    privateTmp: vector.tmpdir === undefined,
    env,
    recordChars: 64 * 1024 * 1024,
    maxRecords: 4000,
    onRecord: (r) => {
      if (r.dir === "recv") onLine(r.text);
    },
  });
  if (vector.tmpdir === undefined) tmpToCheck = session.tmpDir;

  let taken = 0;
  let mark = 0;
  const next = async (withinMs: number): Promise<Received | undefined> => {
    const until = performance.now() + withinMs * scale;
    while (received.length <= taken) {
      if (performance.now() > until || !session!.alive) {
        if (received.length > taken) break;
        if (!session!.alive) await sleep(20); // frames written just before the exit are still being read
        if (received.length > taken) break;
        return undefined;
      }
      await sleep(2);
    }
    return received[taken++];
  };

  const write = async (bytes: Buffer, shown: string) => {
    log.push(`-> ${brief(shown)}`);
    const stdin = session!.child.stdin;
    if (stdin.writableEnded || stdin.destroyed) throw new Failure("stdin is already closed");
    stdin.write(bytes);
    const drained = await Promise.race([session!.drained().then(() => true), sleep(20_000 * scale).then(() => false)]);
    if (!drained) throw new Failure("the plugin stopped reading stdin for 20 s");
  };

  const play = async (step: Step, index: number) => {
    const where = `step ${index + 1}`;
    if ("send" in step) {
      const value = expandSendValue(step.send);
      if (isObj(value) && value.method === "invoke" && isObj(value.params) && isObj(value.params.context) && typeof value.params.context.invoke_id === "string") {
        const invokeId = value.params.context.invoke_id;
        active.set(invokeId, { invokeId, tool: String(value.params.tool), requestId: value.id as string | number, deadlineMs: Date.now() + 60_000 });
      }
      const body = serialiseFrame(value, step.bytes);
      await write(Buffer.concat([body, Buffer.from(step.eol ?? "\n")]), body.length > 300 ? `${body.subarray(0, 300).toString()}… (${body.length} bytes)` : body.toString());
      mark = session!.now();
    } else if ("send_raw" in step) {
      const bytes = rawBytes(step.send_raw);
      await write(bytes, JSON.stringify(bytes.subarray(0, 300).toString("latin1")) + (bytes.length > 300 ? ` (${bytes.length} bytes)` : ""));
      mark = session!.now();
    } else if ("expect" in step) {
      const got = await next(step.within_ms ?? 5000);
      if (!got) throw new Failure(`${where}: no frame within ${(step.within_ms ?? 5000) * scale} ms; want ${brief(JSON.stringify(step.expect))}`);
      const want = step.via ?? "inline";
      if (got.via !== want) throw new Failure(`${where}: the answer came ${got.via === "file" ? "by file transport" : "inline"}, want ${want}`);
      if (got.via === "file") checkFile(got, where);
      const m = mismatch(step.expect, got.frame, ctx);
      if (m) throw new Failure(`${where}: ${m}`);
    } else if ("expect_unordered" in step) {
      const frames: Received[] = [];
      for (let i = 0; i < step.expect_unordered.length; i++) {
        const got = await next(step.within_ms ?? 5000);
        if (!got) throw new Failure(`${where}: ${frames.length} of ${step.expect_unordered.length} frames within ${(step.within_ms ?? 5000) * scale} ms`);
        if (got.via === "file") throw new Failure(`${where}: an answer came by file transport`);
        frames.push(got);
      }
      const m = unorderedMismatch(step.expect_unordered, frames.map((f) => f.frame), ctx);
      if (m) throw new Failure(`${where}: ${m}`);
    } else if ("expect_silence_ms" in step) {
      const before = received.length;
      await sleep(step.expect_silence_ms * scale);
      if (received.length > before) throw new Failure(`${where}: want no frame for ${step.expect_silence_ms} ms, got ${brief(JSON.stringify((await received[before])!.frame))}`);
    } else if ("close_stdin" in step) {
      log.push("-> (stdin closed)");
      session!.closeStdin();
      mark = session!.now();
    } else if ("signal" in step) {
      log.push(`-> ${step.signal}`);
      session!.child.kill(step.signal);
      mark = session!.now();
    } else if ("wait_ms" in step) {
      await sleep(step.wait_ms * scale);
    } else if ("pause_stdout" in step) {
      session!.child.stdout.pause();
    } else if ("resume_stdout" in step) {
      session!.child.stdout.resume();
    } else if ("expect_exit" in step) {
      const { code, within_ms, after_ms } = step.expect_exit;
      // Polls the exit itself: the streams may never close while stdout is paused.
      const until = mark + within_ms * scale + 200;
      while (!session!.exit && !session!.spawnError && session!.now() < until) await sleep(10);
      const exit = session!.exit;
      if (!exit) throw new Failure(`${where}: still running ${within_ms * scale} ms after the last signal or EOF`);
      const took = exit.t - mark;
      if (exit.code !== code) throw new Failure(`${where}: exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}, want code ${code}`);
      if (took > within_ms * scale) throw new Failure(`${where}: exited ${Math.round(took)} ms after the last signal or EOF, want within ${within_ms * scale} ms`);
      if (after_ms !== undefined && took < after_ms) throw new Failure(`${where}: exited after ${Math.round(took)} ms, want not before ${after_ms} ms`);
    }
  };

  const checkFile = (got: Received, where: string) => {
    const path = String(got.pointer!.__file_transport);
    const pointerKeys = Object.keys(got.pointer!).sort().join(",");
    if (pointerKeys !== "__file_transport,id,jsonrpc") throw new Failure(`${where}: the pointer frame has keys ${pointerKeys}`);
    if (!isAbsolute(path)) throw new Failure(`${where}: the file-transport path ${JSON.stringify(path)} is not absolute`);
    if (!FILE_NAME.test(path)) throw new Failure(`${where}: the file ${path} is not named executa-resp-<32 hex>.json`);
    if (got.fileError) throw new Failure(`${where}: the host could not read ${path}: ${got.fileError}`);
    if (got.mode !== undefined && process.platform !== "win32" && got.mode !== 0o600) throw new Failure(`${where}: the file's mode is ${got.mode.toString(8)}, want 600`);
    if (got.frame.id !== got.pointer!.id) throw new Failure(`${where}: the file's id ${JSON.stringify(got.frame.id)} differs from the pointer's ${JSON.stringify(got.pointer!.id)}`);
  };

  let failure: string | undefined;
  try {
    for (const [i, step] of vector.steps.entries()) await play(step, i);
    const expectsExit = vector.steps.some((s) => "expect_exit" in s);
    if (!expectsExit && !session.alive) throw new Failure(`the plugin exited (${session.exit?.signal ?? `code ${session.exit?.code}`}) and the vector expects it to run on`);
    if (!vector.ignore_rest && received.length > taken) {
      throw new Failure(`an unexpected frame: ${brief(JSON.stringify((await received[taken])!.frame))}`);
    }
    if (session.noise.length > 0) throw new Failure(`stdout carried something that is not a frame: ${brief(JSON.stringify(session.noise[0]!.line))} (${session.noise[0]!.why})`);
    await session.settled();
    const left = tmpToCheck ? safeList(tmpToCheck) : [];
    if (left.length > 0) throw new Failure(`files left in the temp folder: ${left.join(", ")}`);
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    failure = error.message;
  } finally {
    session.child.stdout.resume();
    await session.dispose(500);
    rmSync(scratch, { recursive: true, force: true });
  }
  if (failure !== undefined) {
    const stderr = session.stderr.trim().split("\n").slice(-15).join("\n");
    failure = `${vector.id} (line ${vector.line}): ${vector.title}\n  ${failure}\n  frames:\n    ${log.slice(-20).join("\n    ")}\n  stderr (end):\n    ${stderr.replaceAll("\n", "\n    ")}`;
  }
  return { id: vector.id, ok: failure === undefined, ...(failure !== undefined && { failure }), ms: Math.round(performance.now() - started) };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}
