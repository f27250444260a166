/**
 * The wire to one running plugin: requests with ids and their answers, reverse requests answered
 * by the mock host, file transport read and deleted by the safe rules, every frame recorded with
 * its time within a memory budget, stderr captured, and at the end SIGTERM then SIGKILL to the
 * plugin's whole process group. (Session adds the Executa methods on top.)
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import {
  FILE_TRANSPORT_KEY,
  MAX_FRAME_BYTES,
  PROGRESS_METHOD,
  RpcError,
  Timeouts,
  type Json,
} from "../protocol/index.js";
import {
  isFileTransportPointer,
  readFileTransport,
  type FileTransportRead,
  type TransportFolder,
} from "./file-transport.js";
import type { LaunchSpec } from "./launch.js";
import { LineSplitter, type OversizeLine } from "./lines.js";
import { MockHost, type ActiveInvoke } from "./mock/index.js";
import { endGroup, signalGroup, spawnInGroup } from "./process-group.js";
import { DescendantTracker, killProcesses, SESSION_MARK_VARIABLE } from "./descendants.js";
import { readProgress, type InvokeState, type ProgressEvent } from "./progress.js";
import { BoundedList } from "./record-log.js";
import { isOverResultLimit, resultTooLarge } from "./result-limit.js";
import { filesIn, inheritedTempFolder, privateTempFolder, removeTempFolder } from "./temp-folder.js";
import {
  PluginExited,
  RpcTimeout,
  TIMED_OUT,
  within,
  type Direction,
  type ExitInfo,
  type FrameRecord,
  type Noise,
  type Response,
  type ReverseExchange,
  type SessionOptions,
  type Stray,
} from "./session-types.js";

/** An invoke answered in a way the platform cannot carry: over its 4 MiB result limit, or by file transport. */
export interface InvokeAnswerNote {
  tool: string;
  invokeId: string;
  /** The response frame's bytes (the file's, for file transport). */
  bytes: number;
  byFile: boolean;
  tooLarge: boolean;
}

interface Pending {
  method: string;
  sent: number;
  resolve: (r: Response) => void;
  reject: (e: Error) => void;
  invokeId?: string;
}

const idKey = (id: unknown) => `${typeof id}:${String(id)}`;
/** After the plugin exits, how long its stdout may stay open (frames written just before the exit) before the host stops reading. */
const STDOUT_DRAIN_MS = 500;
/** At the end of a session, how long the group has between SIGTERM and SIGKILL. */
const END_GRACE_MS = 1000;
const DEFAULT_RECORD_BUDGET = 32 * 1024 * 1024;
/** A stray answer bigger than this is kept as a stub (up to 1000 are kept). */
const KEPT_STRAY_BYTES = 64 * 1024;
/** Progress notifications kept per invoke, and invoke ids remembered as finished. */
const PROGRESS_PER_INVOKE = 1000;
const FINISHED_REMEMBERED = 10_000;
const FRAME_ID = /"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/;

/** A copy that does not keep the (possibly 16 MiB) string it was cut from alive, as V8's sliced strings do. */
const ownCopy = (text: string) => Buffer.from(text, "utf8").toString("utf8");

/** What is worth keeping of a big stray answer: its id and error code. */
function stub(f: Record<string, unknown>, bytes: number): Record<string, unknown> {
  const code = (f.error as { code?: unknown } | undefined)?.code;
  return {
    jsonrpc: f.jsonrpc,
    id: typeof f.id === "string" ? ownCopy(f.id.slice(0, 200)) : f.id,
    ...(typeof code === "number" && { error: { code, message: `(a ${bytes}-byte answer, not kept)` } }),
  };
}

export class PluginChannel {
  readonly child: ChildProcessWithoutNullStreams;
  readonly mockHost: MockHost;
  readonly activeInvokes = new Map<string, ActiveInvoke>();
  /** The plugin's own temp folder (its TMPDIR), when the host made one. */
  readonly tmpDir: string | undefined;
  /** Where file-transport files may be: the temp folder the plugin was started with. */
  readonly transportFolder: TransportFolder;
  /** An initialize answered "2.0" (see `reverseAllowed` for what the host serves). */
  negotiatedV2 = false;
  /** The host sent initialize on this session (the platform's own harness never does). */
  initializeSent = false;
  protocolVersion: string | undefined;
  hostCapabilities: readonly string[] | undefined;
  /** The plugin's tool id (its manifest name), once describe answered one. */
  toolId: string | undefined;
  exit: ExitInfo | undefined;
  spawnError: Error | undefined;
  /** Set when stdout ended in the middle of a line. */
  partialLine: string | undefined;
  /** Set when the plugin exited but something it started kept its stdout open. */
  stdoutHeldOpen = false;
  /** Processes the plugin started that left its process group and outlived it (the host ended them). */
  escapedDescendants: { pid: number; name: string }[] = [];
  private readonly descendants = new DescendantTracker();
  /** stdout lines over the 16 MiB limit: cut, not read (the first 100; every one is also noise). */
  readonly oversizeLines: { bytes: number; head: string; ended: boolean; t: number }[] = [];
  /** Bytes read from stdout so far, and when the last ones came. */
  stdoutBytes = 0;
  lastStdoutAt = 0;
  /** Answers with `id: null`, per integer error code ("other" for the rest): every one, however many. */
  readonly nullIdCodes = new Map<unknown, number>();
  private readonly records: BoundedList<FrameRecord>;
  private readonly noiseLog = new BoundedList<Noise>(200);
  private readonly strayLog = new BoundedList<Stray>(1000);
  private readonly transportLog = new BoundedList<FileTransportRead>(1000);
  private readonly progressLog = new BoundedList<ProgressEvent>(1000);
  private readonly progressByInvoke = new Map<string, ProgressEvent[]>();
  private readonly reverseByInvoke = new Map<string, ReverseExchange[]>();
  private readonly finishedInvokes = new Map<string, string>();
  private readonly invokeNotes = new BoundedList<InvokeAnswerNote>(1000);
  private stderrTail = "";
  private readonly started = performance.now();
  private readonly pending = new Map<string, Pending>();
  protected nextId = 1;
  private closed = false;
  private readonly closedPromise: Promise<void>;
  private readonly nullListeners = new Set<(f: Record<string, unknown>) => void>();
  private transportsInFlight = 0;
  private ended: Promise<void> | undefined;

  constructor(
    launch: LaunchSpec,
    private readonly options: SessionOptions = {},
  ) {
    this.mockHost = options.mockHost ?? new MockHost();
    this.hostCapabilities = options.hostCapabilities;
    this.records = new BoundedList(
      options.maxRecords ?? 20_000,
      options.recordBudget ?? DEFAULT_RECORD_BUDGET,
      (r) => r.text.length,
    );
    const env: NodeJS.ProcessEnv = { ...(launch.env ?? process.env), ...options.env };
    this.transportFolder = options.privateTmp === false ? inheritedTempFolder(env) : privateTempFolder(env);
    if (this.transportFolder.identity) this.tmpDir = this.transportFolder.path;
    this.child = spawnInGroup(launch.command, launch.args, {
      cwd: launch.cwd,
      env: { ...env, [SESSION_MARK_VARIABLE]: this.descendants.mark },
    });
    this.descendants.watch(this.child.pid);
    this.child.stdin.on("error", () => undefined);
    const splitter = new LineSplitter((line) => this.onLine(line), { onOversize: (o) => this.onOversize(o) });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.stdoutBytes += chunk.length;
      this.lastStdoutAt = this.now();
      splitter.push(chunk);
    });
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-64 * 1024);
      this.record("stderr", chunk, Buffer.byteLength(chunk));
    });
    this.closedPromise = new Promise((resolve) => {
      const done = () => {
        if (this.closed) return;
        this.closed = true;
        const rest = splitter.flush();
        if (rest?.length) this.partialLine = rest.subarray(0, 200).toString("utf8");
        const error = new PluginExited(this.exit, this.spawnError);
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
        resolve();
      };
      this.child.on("close", done);
      this.child.on("exit", (code, signal) => {
        this.exit = { code, signal, t: this.now() };
        // Never wait on a pipe held open by a grandchild: read what the plugin wrote, then stop.
        setTimeout(() => {
          if (this.closed) return;
          this.stdoutHeldOpen = true;
          this.child.stdout.destroy();
          this.child.stderr.destroy();
          done();
        }, STDOUT_DRAIN_MS);
      });
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

  /** Every frame and stderr chunk, oldest first, within the budget (see `transcriptDropped`). */
  get transcript(): FrameRecord[] {
    return this.records.list;
  }

  /** Records dropped, oldest first, to keep the transcript within its budget. */
  get transcriptDropped(): number {
    return this.records.dropped;
  }

  /** stdout lines that are not JSON-RPC 2.0 frames (the latest 200; `noiseCount` counts all). */
  get noise(): Noise[] {
    return this.noiseLog.list;
  }

  get noiseCount(): number {
    return this.noiseLog.total;
  }

  /** Answers to nothing the host waits for (the latest 1000; `strayCount` counts all). */
  get strays(): Stray[] {
    return this.strayLog.list;
  }

  get strayCount(): number {
    return this.strayLog.total;
  }

  /** Answers with `id: null`, in order. */
  get nullIdResponses(): Record<string, unknown>[] {
    return this.strays.filter((s) => s.kind === "null-id").map((s) => s.frame);
  }

  /** Answers whose id matches no request of ours, or that have no id at all. */
  get unmatched(): Record<string, unknown>[] {
    return this.strays.filter((s) => s.kind !== "null-id").map((s) => s.frame);
  }

  /** `executa/progress` notifications, oldest first (the latest 1000; `progressCount` counts all), each with its problem if any. */
  get progress(): ProgressEvent[] {
    return this.progressLog.list;
  }

  get progressCount(): number {
    return this.progressLog.total;
  }

  /**
   * Whether the host serves reverse requests: protocol 2.0 was negotiated, or no initialize was
   * sent at all (Anna's local-dev runtime sends none and serves them). Only an initialize that
   * ended on another version turns them off.
   */
  get reverseAllowed(): boolean {
    return this.negotiatedV2 || !this.initializeSent;
  }

  /** Invokes answered over the platform's 4 MiB result limit or by file transport, oldest first. */
  get invokeAnswerNotes(): InvokeAnswerNote[] {
    return this.invokeNotes.list;
  }

  private noteInvokeAnswer(p: Pending, bytes: number, byFile: boolean): void {
    if (p.invokeId === undefined || (!byFile && !isOverResultLimit(bytes))) return;
    this.invokeNotes.push({
      tool: this.finishedInvokes.get(p.invokeId) ?? "",
      invokeId: p.invokeId,
      bytes,
      byFile,
      tooLarge: isOverResultLimit(bytes),
    });
  }

  /** Every file-transport pointer the plugin sent, read or refused. */
  get fileTransports(): FileTransportRead[] {
    return this.transportLog.list;
  }

  private record(dir: Direction, text: string, bytes: number): FrameRecord {
    const max = this.options.recordChars ?? 2000;
    const rec: FrameRecord = {
      t: this.now(),
      dir,
      text: text.length > max ? `${ownCopy(text.slice(0, max))}… (${bytes} bytes)` : text,
      bytes,
    };
    this.records.push(rec);
    this.options.onRecord?.(rec);
    return rec;
  }

  private addNoise(line: string, why: string): void {
    this.noiseLog.push({ line: ownCopy(line.slice(0, 500)), why, t: this.now() });
  }

  private onOversize(o: OversizeLine): void {
    const head = o.head.toString("utf8");
    const limit = `over the ${MAX_FRAME_BYTES / 1024 / 1024} MiB limit`;
    const why = o.ended
      ? `a line of ${o.bytes} bytes, ${limit} (cut, not read)`
      : `${o.bytes} bytes without a newline before stdout ended, ${limit} (cut, not read)`;
    if (this.oversizeLines.length < 100)
      this.oversizeLines.push({ bytes: o.bytes, head: head.slice(0, 200), ended: o.ended, t: this.now() });
    this.record("noise", `${head}… (${why})`, o.bytes);
    this.addNoise(head, why);
    if (o.ended) this.answerOversize(head, o.bytes);
  }

  /**
   * As the platform does with a line over 16 MiB: the pending invoke whose id it carries fails
   * with RESULT_TOO_LARGE, and a reverse request is answered -32600 frame_too_large.
   */
  private answerOversize(head: string, bytes: number): void {
    const raw = FRAME_ID.exec(head)?.[1];
    if (raw === undefined) return;
    let id: unknown;
    try {
      id = JSON.parse(raw);
    } catch {
      return;
    }
    const p = this.pending.get(idKey(id));
    if (p?.method === "invoke") {
      this.take(id);
      return this.answerTooLarge(p, id, bytes, Math.round(performance.now() - p.sent));
    }
    if (!p && head.includes('"method"')) {
      this.send({
        jsonrpc: "2.0",
        id: id as Json,
        error: {
          code: RpcError.InvalidRequest,
          message: `frame too large: ${bytes} bytes exceeds the ${MAX_FRAME_BYTES}-byte stdio frame limit`,
          data: { errorCode: "frame_too_large", frame_bytes: bytes, max_frame_bytes: MAX_FRAME_BYTES },
        },
      });
    }
  }

  private onLine(raw: Buffer): void {
    const text = raw.toString("utf8");
    const trimmed = text.trim();
    const rec = this.record(trimmed ? "recv" : "noise", text, raw.length);
    let frame: unknown;
    try {
      frame = trimmed ? JSON.parse(trimmed) : undefined;
    } catch {
      frame = undefined;
    }
    const why = !trimmed
      ? "a blank line"
      : frame === undefined
        ? "not JSON"
        : !frame || typeof frame !== "object" || Array.isArray(frame)
          ? "not a JSON object"
          : undefined;
    if (why) {
      rec.dir = "noise";
      this.addNoise(text, why);
      return;
    }
    const f = frame as Record<string, unknown>;
    if (f.jsonrpc !== "2.0") this.addNoise(text, 'no "jsonrpc": "2.0"');
    if (typeof f.method === "string") {
      if ("id" in f) this.answerReverse(f);
      else if (f.method === PROGRESS_METHOD) this.onProgress(f.params);
      return; // another notification from the plugin: nothing to answer (the platform drops it)
    }
    if (!("id" in f)) {
      if ("result" in f || "error" in f) this.stray("no-id", f, raw.length);
      else this.addNoise(text, "neither a request nor a response (no method, no id)");
      return;
    }
    if (isFileTransportPointer(f)) return this.onPointer(f);
    this.route(f, raw.length);
  }

  private stray(kind: Stray["kind"], f: Record<string, unknown>, bytes = 0): void {
    this.strayLog.push({ t: this.now(), kind, frame: bytes > KEPT_STRAY_BYTES ? stub(f, bytes) : f });
    if (kind !== "null-id") return;
    // Counted per integer code (a plugin cannot grow the table with made-up codes).
    const raw = (f.error as { code?: unknown } | undefined)?.code;
    const code = Number.isInteger(raw) && (this.nullIdCodes.has(raw) || this.nullIdCodes.size < 64) ? raw : "other";
    this.nullIdCodes.set(code, (this.nullIdCodes.get(code) ?? 0) + 1);
    for (const l of this.nullListeners) l(f);
  }

  /** The pending request with this id, taken out of the table (each id is answered once). */
  private take(id: unknown): Pending | undefined {
    const key = idKey(id);
    const p = this.pending.get(key);
    if (p) {
      this.pending.delete(key);
      if (p.invokeId !== undefined) this.finishInvoke(p.invokeId);
    }
    return p;
  }

  /** The invoke is over (answered, timed out or abandoned): later progress for it is a problem. */
  finishInvoke(invokeId: string): void {
    const active = this.activeInvokes.get(invokeId);
    this.activeInvokes.delete(invokeId);
    this.finishedInvokes.set(invokeId, active?.tool ?? "");
    if (this.finishedInvokes.size > FINISHED_REMEMBERED)
      this.finishedInvokes.delete(this.finishedInvokes.keys().next().value!);
  }

  private invokeState(invokeId: string): { state: InvokeState; tool?: string } {
    const active = this.activeInvokes.get(invokeId);
    if (active) return { state: "running", tool: active.tool };
    const finished = this.finishedInvokes.get(invokeId);
    return finished === undefined ? { state: "unknown" } : { state: "finished", ...(finished && { tool: finished }) };
  }

  private onProgress(params: unknown): void {
    const event = readProgress(params, this.now(), (id) => this.invokeState(id));
    this.progressLog.push(event);
    if (event.invokeId !== undefined && this.activeInvokes.has(event.invokeId)) {
      const list = this.progressByInvoke.get(event.invokeId) ?? [];
      if (list.length < PROGRESS_PER_INVOKE) list.push(event);
      this.progressByInvoke.set(event.invokeId, list);
    }
    this.options.onProgress?.(event);
  }

  /** A reverse request answered while its invoke (named, or the only one running) still runs. */
  private noteReverse(f: Record<string, unknown>, answer: Record<string, unknown>): void {
    const params =
      f.params && typeof f.params === "object" && !Array.isArray(f.params)
        ? (f.params as Record<string, unknown>)
        : undefined;
    const named = (params?.context as { invoke_id?: unknown } | undefined)?.invoke_id;
    const invokeId =
      typeof named === "string"
        ? named
        : this.activeInvokes.size === 1
          ? [...this.activeInvokes.keys()][0]!
          : undefined;
    if (invokeId === undefined || !this.activeInvokes.has(invokeId)) return;
    const list = this.reverseByInvoke.get(invokeId) ?? [];
    if (list.length < PROGRESS_PER_INVOKE) list.push({ method: String(f.method), ...(params && { params }), answer });
    this.reverseByInvoke.set(invokeId, list);
  }

  /** The progress an invoke reported and the reverse requests it made while it ran, handed over once with its answer. */
  private progressOf(p: Pending): { progress?: ProgressEvent[]; reverse?: ReverseExchange[] } {
    if (p.invokeId === undefined) return {};
    const list = this.progressByInvoke.get(p.invokeId);
    this.progressByInvoke.delete(p.invokeId);
    const reverse = this.reverseByInvoke.get(p.invokeId);
    this.reverseByInvoke.delete(p.invokeId);
    return { progress: list ?? [], reverse: reverse ?? [] };
  }

  /** File transport only answers a request the host is waiting for; any other pointer is refused, its file left alone. */
  private onPointer(f: Record<string, unknown>): void {
    const path = String(f[FILE_TRANSPORT_KEY]);
    const p = f.id === null ? undefined : this.take(f.id);
    if (!p) {
      this.transportLog.push({
        path,
        error: `refused: a pointer for id ${JSON.stringify(f.id)}, which the host is not waiting for; the file was left alone`,
        deleted: false,
        refused: true,
      });
      this.stray(f.id === null ? "null-id" : "unknown-id", {
        jsonrpc: f.jsonrpc,
        id: f.id,
        [FILE_TRANSPORT_KEY]: ownCopy(path.slice(0, 4096)),
      });
      return;
    }
    this.transportsInFlight++;
    void readFileTransport(path, this.transportFolder).then((read) => {
      this.transportsInFlight--;
      this.transportLog.push(read);
      if (!read.refused) this.noteInvokeAnswer(p, read.bytes ?? 0, true);
      const inner = read.frame ?? {
        jsonrpc: "2.0",
        id: f.id,
        error: { code: 0, message: `file transport failed: ${read.error}` },
      };
      p.resolve({
        frame: { ...inner, id: f.id },
        ms: Math.round(performance.now() - p.sent),
        file: read,
        ...this.progressOf(p),
      });
    });
  }

  private answerReverse(f: Record<string, unknown>): void {
    // Routed now; answered whenever the answer is ready (a person may answer by hand), without holding up other frames.
    void this.mockHost
      .handle(f, {
        negotiatedV2: this.reverseAllowed,
        ...(this.initializeSent && this.protocolVersion !== undefined && { protocolVersion: this.protocolVersion }),
        hostCapabilities: this.hostCapabilities,
        ...(this.toolId !== undefined && { toolId: this.toolId }),
        activeInvokes: this.activeInvokes,
      })
      .then((answer) => {
        this.options.onReverse?.(String(f.method), f.params, answer);
        this.noteReverse(f, answer as Record<string, unknown>);
        this.send({ jsonrpc: "2.0", id: f.id as Json, ...(answer as Record<string, Json>) });
      });
  }

  private route(f: Record<string, unknown>, bytes: number): void {
    if (f.id === null || f.id === undefined) return this.stray("null-id", f, bytes);
    const p = this.take(f.id);
    if (!p) return this.stray("unknown-id", f, bytes);
    const ms = Math.round(performance.now() - p.sent);
    if (p.method === "invoke" && isOverResultLimit(bytes)) return this.answerTooLarge(p, f.id, bytes, ms);
    p.resolve({ frame: f, ms, ...this.progressOf(p) });
  }

  /** What the platform hands the caller for a response frame over its 4 MiB result limit. */
  private answerTooLarge(p: Pending, id: unknown, bytes: number, ms: number): void {
    this.noteInvokeAnswer(p, bytes, false);
    const tooLarge = resultTooLarge(bytes);
    p.resolve({ frame: { jsonrpc: "2.0", id, result: tooLarge.envelope }, ms, tooLarge, ...this.progressOf(p) });
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

  private expect(id: string | number, method: string, invokeId?: string): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      if (this.closed) return reject(new PluginExited(this.exit, this.spawnError));
      this.pending.set(idKey(id), {
        method,
        sent: performance.now(),
        resolve,
        reject,
        ...(invokeId !== undefined && { invokeId }),
      });
    });
  }

  /** Sends a request and returns its answer's promise (no timeout; rejects if the plugin exits). */
  call(method: string, params?: unknown, id: string | number = this.nextId++, invokeId?: string): Promise<Response> {
    const promise = this.expect(id, method, invokeId);
    this.send({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });
    return promise;
  }

  /** Writes a raw line and waits for the answer with `id` (for frames built by hand). */
  callRaw(line: string | Buffer, id: string | number, method = "raw"): Promise<Response> {
    const promise = this.expect(id, method);
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

  /** Resolves with how the plugin exited, or undefined when it is still running after `ms`. */
  async waitExit(ms: number): Promise<ExitInfo | undefined> {
    const r = await within(this.closedPromise, ms);
    return r === TIMED_OUT ? undefined : this.exit;
  }

  closeStdin(): void {
    if (!this.child.stdin.writableEnded) this.child.stdin.end();
  }

  /** SIGTERM to the plugin, then SIGKILL to its group after the grace period, as the Agent stops a plugin. */
  async terminate(graceMs: number = Timeouts.sigtermGraceMs): Promise<{ exit: ExitInfo | undefined; killed: boolean }> {
    if (!this.alive) {
      await this.end();
      return { exit: this.exit, killed: false };
    }
    this.child.kill("SIGTERM");
    const exit = await this.waitExit(graceMs);
    if (exit || !this.alive) {
      await this.end();
      return { exit: exit ?? this.exit, killed: false };
    }
    signalGroup(this.child.pid, this.child, "SIGKILL");
    const killed = await this.waitExit(2000);
    await this.end();
    return { exit: killed, killed: true };
  }

  /** Ends the whole process group (SIGTERM, then SIGKILL), once. */
  private end(): Promise<void> {
    if (this.alive) this.descendants.look();
    this.ended ??= endGroup(this.child, END_GRACE_MS)
      .then(() => this.waitExit(STDOUT_DRAIN_MS + 2000))
      .then(() => {
        this.escapedDescendants = killProcesses(this.descendants.stop());
      });
    return this.ended;
  }

  /** Ends the session: EOF, a short wait, then the group's end. Removes the private temp folder. */
  async dispose(waitMs = 1500): Promise<void> {
    this.closeStdin();
    if (this.alive) await this.waitExit(waitMs);
    await this.end();
    await this.settled();
    if (this.tmpDir) removeTempFolder(this.tmpDir);
  }

  /** Files in the plugin's private temp folder (not folders: PyInstaller unpacks itself into one there). */
  tmpFiles(): string[] {
    return this.tmpDir ? filesIn(this.tmpDir) : [];
  }

  /** Waits until file-transport reads in progress are done. */
  async settled(): Promise<void> {
    while (this.transportsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
  }

  /** The last `count` records as `t dir text` lines, for failure messages. */
  frames(count = 8, filter?: (r: FrameRecord) => boolean): string {
    const pick = (filter ? this.transcript.filter(filter) : this.transcript).slice(-count);
    const arrow: Record<Direction, string> = { send: "->", recv: "<-", noise: "<- (not a frame)", stderr: "stderr" };
    const lines = pick.map(
      (r) => `  ${String(r.t.toFixed(0)).padStart(6)} ms ${arrow[r.dir]} ${r.text.trimEnd().slice(0, 300)}`,
    );
    if (this.records.dropped > 0 && pick.length === count)
      lines.unshift(`  (${this.records.dropped} earlier records dropped to stay within the memory budget)`);
    return lines.join("\n");
  }
}
