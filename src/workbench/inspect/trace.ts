/**
 * The trace the page shows: every frame both ways, stderr, and session events, each classified
 * (request, response, notification; method; id) and tied to the invoke it belongs to: an invoke
 * request, the reverse requests the plugin made for it (by `context.invoke_id`, or as the mock
 * host routed them), the host's answers to those, and the invoke's answer. Texts are redacted
 * before they are stored: a frame value by value, stderr as one stream (a value split across two
 * chunks is still found: the last characters that could start one wait for the next chunk, or
 * HOLD_MS). Bounded: the oldest entries go first.
 */
import { FILE_TRANSPORT_KEY } from "../../protocol/index.js";
import type { FrameRecord, ReverseRecord } from "../../host/index.js";
import type { TraceEntry } from "./wire.js";

const MAX_ENTRIES = 50_000;
/** How long the end of a stderr chunk waits for the rest of a value that may be split. */
const HOLD_MS = 250;

/** What the store needs of the credentials (inspect's Credentials). */
export interface Redactor {
  redact(text: string): string;
  redactFrame(text: string): string;
  /** How many characters at the end of a stream chunk may be the start of a value. */
  readonly holdBack: number;
}
const MAX_CHARS = 64 * 1024 * 1024;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const idKey = (session: number, id: unknown) => `${session}:${typeof id}:${String(id)}`;

/** Our own frames are written `{"jsonrpc","id","method"...}`: the head says what a cut one was. */
const HEAD = /^\{"jsonrpc":"2\.0","id":(-?\d+|"(?:[^"\\]|\\.)*")(?:,"method":"((?:[^"\\]|\\.)*)")?/;
const ANY_ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;

/** Requests that are never answered must not grow the tables without end. */
const MAX_OPEN = 10_000;
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > MAX_OPEN) map.delete(map.keys().next().value!);
}

function parse(text: string): Obj | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export class TraceStore {
  private readonly entries: TraceEntry[] = [];
  private chars = 0;
  private next = 1;
  dropped = 0;
  /** Requests we sent, by session and id: their invoke id (when an invoke). */
  private readonly sent = new Map<string, { method: string; invokeId?: string }>();
  /** Reverse requests the plugin sent, by session and id: the entry, to route it once the host decided. */
  private readonly reverse = new Map<string, TraceEntry>();
  /** File-transport pointers, by session and id, until the file was read. */
  private readonly pointers = new Map<string, TraceEntry>();

  /** `onEntry` gets each new entry, and again an entry that learnt more (its invoke, its file's size). */
  /** The redacted end of each session's stderr, waiting for its next chunk. */
  private readonly held = new Map<number, { text: string; timer: NodeJS.Timeout }>();

  constructor(
    private readonly redactor: Redactor,
    private readonly onEntry: (entry: TraceEntry) => void,
    private readonly started = performance.now(),
  ) {}

  get list(): readonly TraceEntry[] {
    return this.entries;
  }

  private now(): number {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }

  private push(entry: Omit<TraceEntry, "n" | "t">): TraceEntry {
    const full: TraceEntry = { n: this.next++, t: this.now(), ...entry };
    this.entries.push(full);
    this.chars += full.text.length;
    while (this.entries.length > MAX_ENTRIES || this.chars > MAX_CHARS) {
      this.chars -= this.entries.shift()!.text.length;
      this.dropped++;
    }
    this.onEntry(full);
    return full;
  }

  /** A line of the workbench's own: a session started, the plugin exited, a restart. */
  event(session: number, text: string): void {
    this.releaseStderr(session);
    this.push({ session, dir: "event", text, bytes: 0 });
  }

  private stderr(session: number, chunk: string): void {
    const held = this.held.get(session);
    if (held) clearTimeout(held.timer);
    this.held.delete(session);
    const text = this.redactor.redact((held?.text ?? "") + chunk);
    const keep = Math.min(this.redactor.holdBack, text.length);
    const ready = text.slice(0, text.length - keep);
    if (ready) this.push({ session, dir: "stderr", text: ready, bytes: Buffer.byteLength(ready) });
    if (keep)
      this.held.set(session, {
        text: text.slice(text.length - keep),
        timer: setTimeout(() => this.releaseStderr(session), HOLD_MS).unref(),
      });
  }

  /** The held end of a session's stderr goes out (no more is coming soon, or the session ended). */
  releaseStderr(session: number): void {
    const held = this.held.get(session);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(session);
    this.push({ session, dir: "stderr", text: held.text, bytes: Buffer.byteLength(held.text) });
  }

  record(r: FrameRecord, session: number): void {
    if (r.dir === "stderr") return this.stderr(session, r.text);
    const text = r.dir === "noise" ? this.redactor.redact(r.text) : this.redactor.redactFrame(r.text);
    const entry: Omit<TraceEntry, "n" | "t"> = { session, dir: r.dir, text, bytes: r.bytes };
    if (r.dir === "send") this.classifySend(entry, r.text);
    else if (r.dir === "recv") this.classifyRecv(entry, r.text);
    const pushed = this.push(entry);
    if (pushed.dir === "recv" && pushed.kind === "request" && pushed.id !== undefined)
      remember(this.reverse, idKey(session, pushed.id), pushed);
    if (pushed.fileTransport && pushed.id !== undefined) remember(this.pointers, idKey(session, pushed.id), pushed);
  }

  /** The answer to request `id` came by file transport: its size. */
  fileRead(session: number, id: unknown, bytes: number | undefined): void {
    const entry = this.pointers.get(idKey(session, id));
    if (!entry) return;
    this.pointers.delete(idKey(session, id));
    if (bytes !== undefined) entry.fileBytes = bytes;
    this.onEntry(entry);
  }

  /** The mock host decided which invoke a reverse request runs for (and answered it). */
  reverseAnswered(record: ReverseRecord, session: number): void {
    const entry = this.reverse.get(idKey(session, record.id));
    if (!entry) return;
    this.reverse.delete(idKey(session, record.id));
    const invokeId = record.routedTo ?? record.invokeId;
    if (invokeId) entry.invokeId = invokeId;
    if (record.answeredBy) entry.answeredBy = record.answeredBy;
    remember(this.sent, `answer:${idKey(session, record.id)}`, {
      method: record.method,
      ...(invokeId && { invokeId }),
    });
    this.onEntry(entry);
  }

  private classifySend(entry: Omit<TraceEntry, "n" | "t">, text: string): void {
    const frame = parse(text);
    let id: unknown;
    let method: string | undefined;
    if (frame) {
      id = frame.id;
      method = typeof frame.method === "string" ? frame.method : undefined;
    } else {
      const head = HEAD.exec(text);
      if (!head) return;
      id = JSON.parse(head[1]!) as unknown;
      method = head[2];
    }
    if (id === undefined) return;
    entry.id = id as string | number;
    if (method) {
      entry.kind = "request";
      entry.method = method;
      const context = isObject(frame?.params) && isObject(frame.params.context) ? frame.params.context : undefined;
      const invokeId =
        typeof context?.invoke_id === "string" ? context.invoke_id : /"invoke_id":"([^"\\]+)"/.exec(text)?.[1];
      if (method === "invoke" && invokeId) entry.invokeId = invokeId;
      remember(this.sent, idKey(entry.session, id), { method, ...(entry.invokeId && { invokeId: entry.invokeId }) });
      return;
    }
    // The host's answer to a reverse request.
    entry.kind = "response";
    entry.reverse = true;
    const answered = this.sent.get(`answer:${idKey(entry.session, id)}`);
    if (answered) {
      this.sent.delete(`answer:${idKey(entry.session, id)}`);
      entry.method = answered.method;
      if (answered.invokeId) entry.invokeId = answered.invokeId;
    }
  }

  private classifyRecv(entry: Omit<TraceEntry, "n" | "t">, text: string): void {
    const frame = parse(text);
    let id: unknown;
    if (frame) id = frame.id;
    else {
      const m = ANY_ID.exec(text);
      if (m) id = JSON.parse(m[1]!) as unknown;
    }
    if (frame && typeof frame.method === "string") {
      entry.method = frame.method;
      entry.kind = "id" in frame ? "request" : "notification";
      entry.reverse = true;
      const context = isObject(frame.params) && isObject(frame.params.context) ? frame.params.context : undefined;
      if (typeof context?.invoke_id === "string") entry.invokeId = context.invoke_id;
      if (id !== undefined) entry.id = id as string | number;
      return;
    }
    if (id === undefined || id === null) return;
    entry.id = id as string | number;
    entry.kind = "response";
    if (frame && typeof frame[FILE_TRANSPORT_KEY] === "string") entry.fileTransport = true;
    const request = this.sent.get(idKey(entry.session, id));
    if (request) {
      this.sent.delete(idKey(entry.session, id));
      entry.method = request.method;
      if (request.invokeId) entry.invokeId = request.invokeId;
    }
  }
}
