/**
 * One running plugin, spoken to the way the Agent speaks to it: requests with ids, invokes with a
 * context, reverse requests answered by the mock host, file transport read and deleted, every
 * frame recorded with its time, stderr captured, SIGTERM then SIGKILL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILE_TRANSPORT_KEY, PROTOCOL_V1, PROTOCOL_V2, Timeouts, type Json } from "../protocol/index.js";
import { isFileTransportPointer, readFileTransport, type FileTransportRead } from "./file-transport.js";
import type { LaunchSpec } from "./launch.js";
import { LineSplitter } from "./lines.js";
import { MockHost, type ActiveInvoke } from "./mock/index.js";

export type Direction = "send" | "recv" | "noise" | "stderr";

export interface FrameRecord {
  /** Milliseconds since the session started. */
  t: number;
  dir: Direction;
  /** The line (cut to `recordChars`), or a chunk of stderr. */
  text: string;
  bytes: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  t: number;
}

export interface Response {
  frame: Record<string, unknown>;
  /** Milliseconds from the request to its answer. */
  ms: number;
  /** Set when the answer came by file transport. */
  file?: FileTransportRead;
}

export class PluginExited extends Error {
  constructor(readonly exit: ExitInfo | undefined, readonly spawnError?: Error) {
    super(spawnError ? `the plugin could not start: ${spawnError.message}` : `the plugin exited (${describeExit(exit)})`);
  }
}

export class RpcTimeout extends Error {
  constructor(readonly method: string, readonly ms: number) {
    super(`no answer to ${method} within ${ms / 1000} s`);
  }
}

export function describeExit(exit: ExitInfo | undefined): string {
  if (!exit) return "still running";
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

export interface SessionOptions {
  mockHost?: MockHost;
  /** Give the plugin its own temp folder (TMPDIR, TEMP, TMP), to see what it leaves there. */
  privateTmp?: boolean;
  /** Extra environment on top of the launch's. */
  env?: NodeJS.ProcessEnv;
  /** The manifest's host_capabilities, when describe is not sent on this session. */
  hostCapabilities?: readonly string[];
  /** Keep at most this many records (the oldest go first); default 20 000. */
  maxRecords?: number;
  recordChars?: number;
  onRecord?: (record: FrameRecord) => void;
  /** Called with each reverse request's record after the mock host answered it. */
  onReverse?: (method: string, params: unknown, answer: unknown) => void;
}

export interface InvokeOptions {
  credentials?: Record<string, string>;
  invokeId?: string;
  deadlineMs?: number;
  /** How long to wait for the answer; default the tool's timeout as the Agent gives it (60 s). */
  timeoutMs?: number;
  id?: string | number;
}

interface Pending {
  method: string;
  sent: number;
  resolve: (r: Response) => void;
  reject: (e: Error) => void;
  invokeId?: string;
}

const idKey = (id: unknown) => `${typeof id}:${String(id)}`;
export const TIMED_OUT = Symbol("timed out");

/** The value of `promise`, or TIMED_OUT after `ms` (the promise keeps running). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms))),
  ]);
}

export class Session {
  readonly child: ChildProcessWithoutNullStreams;
  readonly transcript: FrameRecord[] = [];
  readonly mockHost: MockHost;
  /** stdout lines that are not JSON-RPC 2.0 frames (each with why). */
  readonly noise: { line: string; why: string; t: number }[] = [];
  /** Answers with `id: null` (parse errors, invalid requests), in order. */
  readonly nullIdResponses: Record<string, unknown>[] = [];
  /** Answers whose id matches no request of ours. */
  readonly unmatched: Record<string, unknown>[] = [];
  readonly fileTransports: FileTransportRead[] = [];
  readonly activeInvokes = new Map<string, ActiveInvoke>();
  readonly tmpDir: string | undefined;
  negotiatedV2 = false;
  protocolVersion: string | undefined;
  hostCapabilities: readonly string[] | undefined;
  exit: ExitInfo | undefined;
  spawnError: Error | undefined;
  /** Set when stdout ended in the middle of a line. */
  partialLine: string | undefined;
  private stderrTail = "";
  private readonly started = performance.now();
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private closed = false;
  private readonly closedPromise: Promise<void>;
  private readonly nullListeners = new Set<(f: Record<string, unknown>) => void>();
  private transportsInFlight = 0;

  constructor(launch: LaunchSpec, private readonly options: SessionOptions = {}) {
    this.mockHost = options.mockHost ?? new MockHost();
    this.hostCapabilities = options.hostCapabilities;
    const env: NodeJS.ProcessEnv = { ...(launch.env ?? process.env), ...options.env };
    if (options.privateTmp) {
      this.tmpDir = mkdtempSync(join(tmpdir(), "executa-tmp-"));
      env.TMPDIR = env.TEMP = env.TMP = this.tmpDir;
    }
    this.child = spawn(launch.command, launch.args, { cwd: launch.cwd, env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    this.child.stdin.on("error", () => undefined);
    const splitter = new LineSplitter((line) => this.onLine(line));
    this.child.stdout.on("data", (chunk: Buffer) => splitter.push(chunk));
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-64 * 1024);
      this.record("stderr", chunk, Buffer.byteLength(chunk));
    });
    this.child.on("exit", (code, signal) => {
      this.exit = { code, signal, t: this.now() };
    });
    this.closedPromise = new Promise((resolve) => {
      const done = () => {
        if (this.closed) return;
        this.closed = true;
        const rest = splitter.flush();
        if (rest && rest.length) this.partialLine = rest.toString("utf8").slice(0, 200);
        const error = new PluginExited(this.exit, this.spawnError);
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
        resolve();
      };
      this.child.on("close", done);
      this.child.on("error", (error) => {
        this.spawnError = error;
        done();
      });
    });
  }

  now(): number {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  get alive(): boolean {
    return !this.closed && this.exit === undefined;
  }

  private record(dir: Direction, text: string, bytes: number): void {
    const max = this.options.recordChars ?? 2000;
    const rec: FrameRecord = { t: this.now(), dir, text: text.length > max ? `${text.slice(0, max)}… (${bytes} bytes)` : text, bytes };
    this.transcript.push(rec);
    if (this.transcript.length > (this.options.maxRecords ?? 20_000)) this.transcript.shift();
    this.options.onRecord?.(rec);
  }

  private onLine(raw: Buffer): void {
    const text = raw.toString("utf8");
    const trimmed = text.trim();
    this.record(trimmed ? "recv" : "noise", text, raw.length);
    if (!trimmed) {
      this.noise.push({ line: text, why: "a blank line", t: this.now() });
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(trimmed);
    } catch {
      this.transcript[this.transcript.length - 1]!.dir = "noise";
      this.noise.push({ line: text.slice(0, 500), why: "not JSON", t: this.now() });
      return;
    }
    if (!frame || typeof frame !== "object" || Array.isArray(frame)) {
      this.noise.push({ line: text.slice(0, 500), why: "not a JSON object", t: this.now() });
      return;
    }
    const f = frame as Record<string, unknown>;
    if (f.jsonrpc !== "2.0") this.noise.push({ line: text.slice(0, 500), why: 'no "jsonrpc": "2.0"', t: this.now() });
    if (typeof f.method === "string") {
      if ("id" in f) this.answerReverse(f);
      return; // a notification from the plugin: nothing to answer
    }
    if (!("id" in f)) {
      this.noise.push({ line: text.slice(0, 500), why: "neither a request nor a response (no method, no id)", t: this.now() });
      return;
    }
    if (isFileTransportPointer(f)) {
      this.transportsInFlight++;
      void readFileTransport(String(f[FILE_TRANSPORT_KEY])).then((read) => {
        this.transportsInFlight--;
        this.fileTransports.push(read);
        const inner = read.frame ?? { jsonrpc: "2.0", id: f.id, error: { code: 0, message: `file transport failed: ${read.error}` } };
        this.route({ ...inner, id: f.id }, read);
      });
      return;
    }
    this.route(f);
  }

  private answerReverse(f: Record<string, unknown>): void {
    // Routed now; answered whenever the answer is ready (a person may answer by hand), without holding up other frames.
    void this.mockHost.handle(f, {
      negotiatedV2: this.negotiatedV2,
      hostCapabilities: this.hostCapabilities,
      activeInvokes: this.activeInvokes,
    }).then((answer) => {
      this.options.onReverse?.(String(f.method), f.params, answer);
      this.send({ jsonrpc: "2.0", id: f.id as Json, ...(answer as Record<string, Json>) });
    });
  }

  private route(f: Record<string, unknown>, file?: FileTransportRead): void {
    if (f.id === null || f.id === undefined) {
      this.nullIdResponses.push(f);
      for (const l of this.nullListeners) l(f);
      return;
    }
    const key = idKey(f.id);
    const p = this.pending.get(key);
    if (!p) {
      this.unmatched.push(f);
      return;
    }
    this.pending.delete(key);
    if (p.invokeId !== undefined) this.activeInvokes.delete(p.invokeId);
    p.resolve({ frame: f, ms: Math.round(performance.now() - p.sent), ...(file && { file }) });
  }

  /** Resolves with the next answer that has `id: null`. */
  nextNullIdResponse(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const listener = (f: Record<string, unknown>) => {
        this.nullListeners.delete(listener);
        resolve(f);
      };
      this.nullListeners.add(listener);
      void this.closedPromise.then(() => {
        if (this.nullListeners.delete(listener)) reject(new PluginExited(this.exit, this.spawnError));
      });
    });
  }

  /** Writes one line (a frame object, or raw text/bytes as they are) followed by LF. */
  send(frame: unknown): void {
    this.sendRaw(JSON.stringify(frame));
  }

  sendRaw(line: string | Buffer): void {
    const bytes = typeof line === "string" ? Buffer.byteLength(line) : line.length;
    this.record("send", typeof line === "string" ? line : line.toString("utf8"), bytes);
    if (this.closed || this.child.stdin.destroyed || this.child.stdin.writableEnded) return;
    if (typeof line === "string") this.child.stdin.write(line + "\n");
    else this.child.stdin.write(Buffer.concat([line, Buffer.from("\n")]));
  }

  /** Resolves when stdin can take more (for senders of many frames). */
  drained(): Promise<void> {
    if (!this.child.stdin.writableNeedDrain || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.child.stdin.off("drain", done);
        resolve();
      };
      this.child.stdin.once("drain", done);
      void this.closedPromise.then(done);
    });
  }

  /** Sends a request and returns its answer's promise (no timeout; rejects if the plugin exits). */
  call(method: string, params?: unknown, id: string | number = this.nextId++, invokeId?: string): Promise<Response> {
    const promise = new Promise<Response>((resolve, reject) => {
      if (this.closed) return reject(new PluginExited(this.exit, this.spawnError));
      this.pending.set(idKey(id), { method, sent: performance.now(), resolve, reject, ...(invokeId !== undefined && { invokeId }) });
    });
    this.send({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });
    return promise;
  }

  /** Writes a raw line and waits for the answer with `id` (for frames built by hand). */
  callRaw(line: string | Buffer, id: string | number, method = "raw"): Promise<Response> {
    const promise = new Promise<Response>((resolve, reject) => {
      if (this.closed) return reject(new PluginExited(this.exit, this.spawnError));
      this.pending.set(idKey(id), { method, sent: performance.now(), resolve, reject });
    });
    this.sendRaw(line);
    return promise;
  }

  /** A request with a timeout: rejects with RpcTimeout (the late answer is still recorded). */
  async request(method: string, params?: unknown, timeoutMs = 10_000, id?: string | number): Promise<Response> {
    const promise = this.call(method, params, id);
    promise.catch(() => undefined);
    const r = await within(promise, timeoutMs);
    if (r === TIMED_OUT) throw new RpcTimeout(method, timeoutMs);
    return r;
  }

  /** `initialize` offering a version; notes whether 2.0 was negotiated. -32601 means a v1 plugin. */
  async initialize(version: string = PROTOCOL_V2, timeoutMs = Timeouts.describeMs): Promise<Response> {
    const r = await this.request("initialize", { protocolVersion: version, clientInfo: { name: "executa", version: "test" }, host_capabilities: {} }, timeoutMs);
    const result = r.frame.result as Record<string, unknown> | undefined;
    this.protocolVersion = typeof result?.protocolVersion === "string" ? result.protocolVersion : "error" in r.frame ? PROTOCOL_V1 : undefined;
    this.negotiatedV2 = this.protocolVersion === PROTOCOL_V2 || Boolean(this.protocolVersion?.startsWith("2."));
    return r;
  }

  async describe(timeoutMs: number = Timeouts.describeMs): Promise<Response> {
    const r = await this.request("describe", undefined, timeoutMs);
    const caps = (r.frame.result as Record<string, unknown> | undefined)?.host_capabilities;
    if (Array.isArray(caps)) this.hostCapabilities = caps.filter((c): c is string => typeof c === "string");
    else if (r.frame.result) this.hostCapabilities = [];
    return r;
  }

  health(timeoutMs: number = Timeouts.healthMs): Promise<Response> {
    return this.request("health", undefined, timeoutMs);
  }

  /** The invoke's answer promise; the invoke counts as active (for routing) until it is answered. */
  callInvoke(tool: string, args: unknown, options: InvokeOptions = {}): { invokeId: string; promise: Promise<Response> } {
    const invokeId = options.invokeId ?? `inv-${randomBytes(8).toString("hex")}`;
    const timeoutMs = options.timeoutMs ?? Timeouts.invokeDefaultS * 1000;
    const deadlineMs = options.deadlineMs ?? Date.now() + timeoutMs;
    const id = options.id ?? this.nextId++;
    this.activeInvokes.set(invokeId, { invokeId, tool, requestId: id, deadlineMs });
    const context: Record<string, unknown> = { invoke_id: invokeId, deadline_ms: deadlineMs };
    if (options.credentials) context.credentials = options.credentials;
    const promise = this.call("invoke", { tool, arguments: args, context }, id, invokeId);
    promise.catch(() => this.activeInvokes.delete(invokeId));
    return { invokeId, promise };
  }

  async invoke(tool: string, args: unknown, options: InvokeOptions = {}): Promise<Response> {
    const timeoutMs = options.timeoutMs ?? Timeouts.invokeDefaultS * 1000;
    const { invokeId, promise } = this.callInvoke(tool, args, { ...options, timeoutMs });
    const r = await within(promise, timeoutMs);
    if (r === TIMED_OUT) {
      this.activeInvokes.delete(invokeId);
      throw new RpcTimeout(`invoke ${tool}`, timeoutMs);
    }
    return r;
  }

  /** Resolves with how the plugin exited, or undefined when it is still running after `ms`. */
  async waitExit(ms: number): Promise<ExitInfo | undefined> {
    const r = await within(this.closedPromise, ms);
    return r === TIMED_OUT ? undefined : this.exit;
  }

  closeStdin(): void {
    if (!this.child.stdin.writableEnded) this.child.stdin.end();
  }

  /** SIGTERM, then SIGKILL after the grace period, as the Agent stops a plugin. */
  async terminate(graceMs: number = Timeouts.sigtermGraceMs): Promise<{ exit: ExitInfo | undefined; killed: boolean }> {
    if (!this.alive) return { exit: this.exit, killed: false };
    this.child.kill("SIGTERM");
    const exit = await this.waitExit(graceMs);
    if (exit || !this.alive) return { exit: exit ?? this.exit, killed: false };
    this.child.kill("SIGKILL");
    return { exit: await this.waitExit(2000), killed: true };
  }

  /** Ends the session quickly: EOF, a short wait, then SIGKILL. Removes the private temp folder. */
  async dispose(waitMs = 1500): Promise<void> {
    this.closeStdin();
    if (this.alive && !(await this.waitExit(waitMs))) {
      this.child.kill("SIGKILL");
      await this.waitExit(2000);
    }
    while (this.transportsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
    if (this.tmpDir) rmSync(this.tmpDir, { recursive: true, force: true });
  }

  /** The files in the private temp folder now. */
  /** Files (not folders: a PyInstaller one-file binary unpacks itself into a `_MEI*` folder there) in the plugin's temp folder. */
  tmpFiles(): string[] {
    if (!this.tmpDir) return [];
    try {
      return readdirSync(this.tmpDir, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => e.name);
    } catch {
      return [];
    }
  }

  /** Waits until file-transport reads in progress are done. */
  async settled(): Promise<void> {
    while (this.transportsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
  }

  /** The last `count` records as `t dir text` lines, for failure messages. */
  frames(count = 8, filter?: (r: FrameRecord) => boolean): string {
    const pick = (filter ? this.transcript.filter(filter) : this.transcript).slice(-count);
    const arrow: Record<Direction, string> = { send: "->", recv: "<-", noise: "<- (not a frame)", stderr: "stderr" };
    return pick.map((r) => `  ${String(r.t.toFixed(0)).padStart(6)} ms ${arrow[r.dir]} ${r.text.trimEnd().slice(0, 300)}`).join("\n");
  }
}
