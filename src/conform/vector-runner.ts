/**
 * Plays runtime vectors against a plugin, on the host's Session: sends a vector's frames,
 * answers reverse requests (the vector's rules first, then the mock host), checks every frame
 * the plugin writes against the vector's patterns, and the process's exit. Every vector also
 * checks that stdout carried frames only and that no file-transport file was left behind.
 * Vectors that leave no state behind may share one plugin process (`runVectors`).
 */
import { closeSync, openSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { makeTempDir, removeNow } from "../common/cleanup.js";
import {
  isFileTransportPointer,
  MockHost,
  Session,
  TIMED_OUT,
  within,
  type ActiveInvoke,
  type Answer,
  type LaunchSpec,
  type ReverseContext,
} from "../host/index.js";
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
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const brief = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);
const FILE_NAME = /(^|[\\/])executa-resp-[0-9a-f]{32}\.json$/;
const PROCESS_STEPS = ["close_stdin", "signal", "pause_stdout", "resume_stdout", "expect_exit"];
const STATEFUL_METHODS = /"(initialize|shutdown)"/;

class Failure extends Error {}

/** True when a vector leaves the plugin as it found it, so it can run on a plugin other vectors use too. */
export function isShareable(v: Vector): boolean {
  if (v.fresh || v.env || v.capabilities || v.tmpdir || v.file_size_limit !== undefined || v.ignore_rest) return false;
  return v.steps.every((s) => {
    if (PROCESS_STEPS.some((k) => k in s)) return false;
    if ("send" in s) return !STATEFUL_METHODS.test(JSON.stringify(s.send));
    if ("send_raw" in s) return !s.send_raw.some((p) => typeof p === "string" && STATEFUL_METHODS.test(p));
    return true;
  });
}

/** Answers reverse requests: the current vector's rules first, else the mock host with the invokes the runner sent. */
class ScriptedHost extends MockHost {
  rules: HostRule[] = [];

  constructor(private readonly active: Map<string, ActiveInvoke>) {
    super({ sampling: { kind: "canned", text: "mock reply" } });
  }

  override handle(frame: Record<string, unknown>, _ctx: ReverseContext): Promise<Answer> {
    const rule = this.rules.find(
      (r) => r.method === frame.method && (r.params === undefined || mismatch(r.params, frame.params) === undefined),
    );
    if (rule)
      return Promise.resolve(
        (rule.reply ?? ("error" in rule ? { error: rule.error } : { result: rule.result })) as Answer,
      );
    // The plugin decides whether it may send a reverse request; the host routes it by invoke id.
    return super.handle(frame, { negotiatedV2: true, hostCapabilities: undefined, activeInvokes: this.active });
  }
}

function rawBytes(parts: RawPart[]): Buffer {
  return Buffer.concat(
    parts.map((p) =>
      typeof p === "string"
        ? Buffer.from(p)
        : "hex" in p
          ? Buffer.from(p.hex, "hex")
          : Buffer.alloc(p.bytes, Buffer.from(p.repeat)),
    ),
  );
}

function listFiles(dir: string | undefined): string[] {
  if (!dir) return [];
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** One plugin process that plays vectors, one after the other. */
class VectorPlugin {
  readonly session: Session;
  private readonly scratch = makeTempDir("executa-vector-");
  private readonly tmpToCheck: string | undefined;
  private readonly host: ScriptedHost;
  private readonly active = new Map<string, ActiveInvoke>();
  private readonly received: Promise<Received>[] = [];
  private taken = 0;
  private mark = 0;
  private log: string[] = [];
  private readonly scale: number;
  private readonly ctx: MatchContext;

  /** Starts the plugin with the process-level settings of `setup` (env, capabilities, temp folder, file size limit). */
  constructor(launch: LaunchSpec, setup: Vector | undefined, options: RunVectorOptions) {
    this.scale = options.timeScale ?? 1;
    this.ctx = { manifest: options.manifest };
    const env: NodeJS.ProcessEnv = { ...setup?.env };
    if (setup?.capabilities) env.EXECUTA_TEST_CAPABILITIES = JSON.stringify(setup.capabilities);
    let here = launch;
    if (setup?.tmpdir === "relative") {
      // Started inside its private temp folder, which it is told is ".".
      here = {
        ...launch,
        command: "/bin/sh",
        args: ["-c", 'cd "$TMPDIR" && TMPDIR=. TEMP=. TMP=. exec "$0" "$@"', launch.command, ...launch.args],
      };
    } else if (setup?.tmpdir === "unwritable") {
      closeSync(openSync(join(this.scratch, "a-file"), "w"));
      env.TMPDIR = env.TEMP = env.TMP = join(this.scratch, "a-file", "tmp"); // under a file: nothing can be created there
    }
    if (setup?.file_size_limit !== undefined) {
      const blocks = Math.max(1, Math.floor(setup.file_size_limit / 512));
      here = {
        ...here,
        command: "/bin/sh",
        args: ["-c", `ulimit -f ${blocks} && exec "$0" "$@"`, here.command, ...here.args],
      };
    }
    this.host = new ScriptedHost(this.active);
    this.session = new Session(here, {
      mockHost: this.host,
      privateTmp: setup?.tmpdir !== "unwritable",
      env,
      recordChars: 64 * 1024 * 1024,
      maxRecords: 4000,
      onRecord: (r) => {
        if (r.dir === "recv") this.onLine(r.text);
      },
    });
    this.tmpToCheck = this.session.tmpDir;
  }

  private onLine(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return; // the session counts it as noise
    }
    if (!isObj(frame)) return;
    this.log.push(`<- ${brief(text)}`);
    if (!("method" in frame)) {
      for (const [invokeId, a] of this.active) if (a.requestId === frame.id) this.active.delete(invokeId);
    }
    if (!isFileTransportPointer(frame)) {
      this.received.push(Promise.resolve({ frame, via: "inline" }));
      return;
    }
    const path = String(frame.__file_transport);
    let mode: number | undefined;
    try {
      // Only files in a temp folder are looked at; the session reads (and deletes) the file right after.
      if (isAbsolute(path) && (resolve(path).startsWith(tmpdir()) || resolve(path).startsWith(this.scratch)))
        mode = statSync(path).mode & 0o777;
    } catch {
      // the host's read reports it
    }
    this.received.push(this.fileFrame(frame, path, mode));
  }

  private async fileFrame(pointer: Record<string, unknown>, path: string, mode: number | undefined): Promise<Received> {
    const deadline = performance.now() + 10_000 * this.scale;
    for (;;) {
      const read = this.session.fileTransports.find((f) => f.path === path);
      if (read)
        return {
          frame: read.frame ?? {},
          via: "file",
          pointer,
          ...(mode !== undefined && { mode }),
          ...(read.error && { fileError: read.error }),
        };
      if (performance.now() > deadline)
        return { frame: {}, via: "file", pointer, fileError: "the host never finished reading the file" };
      await sleep(5);
    }
  }

  private async next(withinMs: number): Promise<Received | undefined> {
    const until = performance.now() + withinMs * this.scale;
    while (this.received.length <= this.taken) {
      if (performance.now() > until || !this.session.alive) {
        if (!this.session.alive) await this.session.waitExit(2000 * this.scale); // until stdout is read to its end
        if (this.received.length > this.taken) break;
        return undefined;
      }
      await sleep(2);
    }
    return this.received[this.taken++];
  }

  /** Writes bytes as they are; with an id, writes them as one line the host waits for an answer to. */
  private async write(bytes: Buffer, shown: string, id?: string | number): Promise<void> {
    this.log.push(`-> ${brief(shown)}`);
    const stdin = this.session.child.stdin;
    if (stdin.writableEnded || stdin.destroyed) throw new Failure("stdin is already closed");
    if (id === undefined) stdin.write(bytes);
    else this.session.callRaw(bytes, id).catch(() => undefined); // the answer is checked from the frames seen
    if ((await within(this.session.drained(), 20_000 * this.scale)) === TIMED_OUT)
      throw new Failure("the plugin stopped reading stdin for 20 s");
    this.mark = this.session.now();
  }

  private async step(step: Step, where: string): Promise<void> {
    const session = this.session;
    if ("send" in step) {
      const value = expandSendValue(step.send);
      if (
        isObj(value) &&
        value.method === "invoke" &&
        isObj(value.params) &&
        isObj(value.params.context) &&
        typeof value.params.context.invoke_id === "string"
      ) {
        const invokeId = value.params.context.invoke_id;
        this.active.set(invokeId, {
          invokeId,
          tool: String(value.params.tool),
          requestId: value.id as string | number,
          deadlineMs: Date.now() + 60_000,
        });
      }
      const body = serialiseFrame(value, step.bytes);
      const shown = body.length > 300 ? `${body.subarray(0, 300).toString()}… (${body.length} bytes)` : body.toString();
      const id = isObj(value) ? value.id : undefined;
      if (
        (step.eol ?? "\n") === "\n" &&
        "method" in (value as object) &&
        (typeof id === "string" || typeof id === "number")
      ) {
        // A request the host waits for: the session reads its file transport, as the Agent does.
        await this.write(body, shown, id);
      } else {
        await this.write(Buffer.concat([body, Buffer.from(step.eol ?? "\n")]), shown);
      }
    } else if ("send_raw" in step) {
      const bytes = rawBytes(step.send_raw);
      await this.write(
        bytes,
        JSON.stringify(bytes.subarray(0, 300).toString("latin1")) +
          (bytes.length > 300 ? ` (${bytes.length} bytes)` : ""),
      );
    } else if ("expect" in step) {
      const got = await this.next(step.within_ms ?? 5000);
      if (!got)
        throw new Failure(
          `${where}: no frame within ${(step.within_ms ?? 5000) * this.scale} ms; want ${brief(JSON.stringify(step.expect))}`,
        );
      const want = step.via ?? "inline";
      if (got.via !== want)
        throw new Failure(
          `${where}: the answer came ${got.via === "file" ? "by file transport" : "inline"}, want ${want}`,
        );
      if (got.via === "file") checkFile(got, where);
      const m = mismatch(step.expect, got.frame, this.ctx);
      if (m) throw new Failure(`${where}: ${m}`);
    } else if ("expect_unordered" in step) {
      const frames: Received[] = [];
      for (let i = 0; i < step.expect_unordered.length; i++) {
        const got = await this.next(step.within_ms ?? 5000);
        if (!got)
          throw new Failure(
            `${where}: ${frames.length} of ${step.expect_unordered.length} frames within ${(step.within_ms ?? 5000) * this.scale} ms`,
          );
        if (got.via === "file") throw new Failure(`${where}: an answer came by file transport`);
        frames.push(got);
      }
      const m = unorderedMismatch(
        step.expect_unordered,
        frames.map((f) => f.frame),
        this.ctx,
      );
      if (m) throw new Failure(`${where}: ${m}`);
    } else if ("expect_silence_ms" in step) {
      const before = this.received.length;
      await sleep(step.expect_silence_ms * this.scale);
      if (this.received.length > before)
        throw new Failure(
          `${where}: want no frame for ${step.expect_silence_ms} ms, got ${brief(JSON.stringify((await this.received[before])!.frame))}`,
        );
    } else if ("close_stdin" in step) {
      this.log.push("-> (stdin closed)");
      session.closeStdin();
      this.mark = session.now();
    } else if ("signal" in step) {
      this.log.push(`-> ${step.signal}`);
      session.child.kill(step.signal);
      this.mark = session.now();
    } else if ("wait_ms" in step) {
      await sleep(step.wait_ms * this.scale);
    } else if ("pause_stdout" in step) {
      session.child.stdout.pause();
    } else if ("resume_stdout" in step) {
      session.child.stdout.resume();
    } else if ("expect_exit" in step) {
      const { code, within_ms, after_ms } = step.expect_exit;
      // Polls the exit itself: the streams may never close while stdout is paused.
      const until = this.mark + within_ms * this.scale + 200;
      while (!session.exit && !session.spawnError && session.now() < until) await sleep(10);
      const exit = session.exit;
      if (!exit)
        throw new Failure(`${where}: still running ${within_ms * this.scale} ms after the last frame, signal or EOF`);
      const took = exit.t - this.mark;
      if (exit.code !== code)
        throw new Failure(
          `${where}: exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}, want code ${code}`,
        );
      if (took > within_ms * this.scale)
        throw new Failure(
          `${where}: exited ${Math.round(took)} ms after the last frame, signal or EOF, want within ${within_ms * this.scale} ms`,
        );
      if (after_ms !== undefined && took < after_ms)
        throw new Failure(`${where}: exited after ${Math.round(took)} ms, want not before ${after_ms} ms`);
    }
  }

  /** Plays one vector; the failure with the frames that show it, or undefined when it passes. */
  async play(vector: Vector): Promise<string | undefined> {
    this.log = [];
    this.host.rules = vector.host ?? [];
    const noiseBefore = this.session.noiseCount;
    let failure: string | undefined;
    try {
      if (this.received.length > this.taken)
        throw new Failure(
          `a frame nobody asked for, before the vector began: ${brief(JSON.stringify((await this.received[this.taken])!.frame))}`,
        );
      for (const [i, step] of vector.steps.entries()) await this.step(step, `step ${i + 1}`);
      const expectsExit = vector.steps.some((s) => "expect_exit" in s);
      if (!expectsExit && !this.session.alive) {
        throw new Failure(
          `the plugin exited (${this.session.exit?.signal ?? `code ${this.session.exit?.code}`}) and the vector expects it to run on`,
        );
      }
      if (!vector.ignore_rest && this.received.length > this.taken) {
        throw new Failure(`an unexpected frame: ${brief(JSON.stringify((await this.received[this.taken])!.frame))}`);
      }
      const noise = this.session.noiseCount > noiseBefore ? this.session.noise.at(-1) : undefined;
      if (noise)
        throw new Failure(
          `stdout carried something that is not a frame: ${brief(JSON.stringify(noise.line))} (${noise.why})`,
        );
      await this.session.settled();
      const left = listFiles(this.tmpToCheck);
      if (left.length > 0) throw new Failure(`files left in the temp folder: ${left.join(", ")}`);
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      failure = error.message;
    }
    if (failure === undefined) return undefined;
    const stderr = this.session.stderr.trim().split("\n").slice(-15).join("\n    ");
    return `${vector.id} (line ${vector.line}): ${vector.title}\n  ${failure}\n  frames:\n    ${this.log.slice(-20).join("\n    ")}\n  stderr (end):\n    ${stderr}`;
  }

  async close(): Promise<void> {
    this.session.child.stdout.resume();
    await this.session.dispose(500);
    await this.host.close(); // its local server for presigned PUT and GET URLs
    removeNow(this.scratch);
  }
}

function checkFile(got: Received, where: string): void {
  const path = String(got.pointer!.__file_transport);
  const pointerKeys = Object.keys(got.pointer!).sort().join(",");
  if (pointerKeys !== "__file_transport,id,jsonrpc")
    throw new Failure(`${where}: the pointer frame has keys ${pointerKeys}`);
  if (!isAbsolute(path)) throw new Failure(`${where}: the file-transport path ${JSON.stringify(path)} is not absolute`);
  if (!FILE_NAME.test(path)) throw new Failure(`${where}: the file ${path} is not named executa-resp-<32 hex>.json`);
  if (got.fileError) throw new Failure(`${where}: the host could not read ${path}: ${got.fileError}`);
  if (got.mode !== undefined && process.platform !== "win32" && got.mode !== 0o600)
    throw new Failure(`${where}: the file's mode is ${got.mode.toString(8)}, want 600`);
  if (got.frame.id !== got.pointer!.id)
    throw new Failure(
      `${where}: the file's id ${JSON.stringify(got.frame.id)} differs from the pointer's ${JSON.stringify(got.pointer!.id)}`,
    );
}

/** Starts a plugin for one vector, plays it, and stops the plugin. */
export async function runVector(
  vector: Vector,
  launch: LaunchSpec,
  options: RunVectorOptions = {},
): Promise<VectorResult> {
  const started = performance.now();
  const plugin = new VectorPlugin(launch, vector, options);
  try {
    const failure = await plugin.play(vector);
    return {
      id: vector.id,
      ok: failure === undefined,
      ...(failure !== undefined && { failure }),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await plugin.close();
  }
}

/**
 * Plays many vectors, `concurrency` at a time. Shareable vectors (see isShareable) run one after
 * the other on a plugin per worker, which is restarted after a failure; the others get a plugin each.
 */
export async function runVectors(
  vectors: Vector[],
  launch: LaunchSpec,
  options: RunVectorOptions & { concurrency?: number } = {},
): Promise<Map<string, VectorResult>> {
  const results = new Map<string, VectorResult>();
  const queue = [...vectors];
  const worker = async () => {
    let shared: VectorPlugin | undefined;
    try {
      for (let vector = queue.shift(); vector; vector = queue.shift()) {
        if (!isShareable(vector)) {
          results.set(vector.id, await runVector(vector, launch, options));
          continue;
        }
        const started = performance.now();
        shared ??= new VectorPlugin(launch, undefined, options);
        const failure = await shared.play(vector);
        results.set(vector.id, {
          id: vector.id,
          ok: failure === undefined,
          ...(failure !== undefined && { failure }),
          ms: Math.round(performance.now() - started),
        });
        if (failure !== undefined) {
          await shared.close();
          shared = undefined;
        }
      }
    } finally {
      await shared?.close();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return results;
}
