/**
 * What the inspect server and its page say to each other: the state snapshot, the events of the
 * stream, and the bodies of the API. Imported by both (the page bundles only the types), so it
 * stands on the protocol alone.
 */
import type { ArgumentProblem, Manifest } from "../../protocol/index.js";

export type TraceDirection = "send" | "recv" | "noise" | "stderr" | "event";

export interface TraceEntry {
  /** 1, 2, 3... in the order they happened. */
  n: number;
  /** Milliseconds since the server started. */
  t: number;
  /** Which plugin session (1 for the first start, +1 per restart). */
  session: number;
  dir: TraceDirection;
  /** The frame, stderr chunk or event, with credential values replaced. */
  text: string;
  bytes: number;
  kind?: "request" | "response" | "notification";
  method?: string;
  id?: string | number;
  /** The invoke this frame belongs to. */
  invokeId?: string;
  /** A reverse request from the plugin, or the host's answer to one. */
  reverse?: boolean;
  /** Who answered a reverse request: host (refused), rule, mock, manual. */
  answeredBy?: string;
  /** A file-transport pointer; `fileBytes` is the size of the answer in the file, once read. */
  fileTransport?: boolean;
  fileBytes?: number;
}

export type SamplingKind = "canned" | "echo" | "rules" | "manual";

export interface PendingManual {
  seq: number;
  session: number;
  method: string;
  invokeId?: string;
  prompt: string;
  params: unknown;
  /** Milliseconds since the server started. */
  t: number;
}

export type WatchState =
  | { state: "off" }
  | { state: "watching" }
  | { state: "rebuilding"; files: string[] }
  | { state: "failed"; message: string };

export interface PluginState {
  /** "starting", "ready", "failed" (could not start), "exited" (it restarts on the next request). */
  status: "starting" | "ready" | "failed" | "exited";
  message?: string;
  session: number;
  manifest?: Manifest;
  protocolVersion?: string;
  health?: unknown;
  launch: { command: string; args: string[]; source: string };
  stderrTail?: string;
}

/** The host to simulate: initialize offering 2.0, offering 1.1 (no reverse requests), or none at all (Anna's local-dev runtime). */
export type HostProtocolChoice = "2.0" | "1.1" | "none";

/** One executa/progress notification, as the page shows it in the running invoke's card. */
export interface ProgressNote {
  session: number;
  invokeId?: string;
  tool?: string;
  type: unknown;
  data: unknown;
  /** What the platform would drop or change. */
  problem?: string;
  /** Milliseconds since the server started. */
  t: number;
}

export interface HostState {
  protocol: HostProtocolChoice;
  refused: string[];
  sampling: { kind: SamplingKind; text: string };
  /** The rules in use: where they came from and how many. */
  rules: { source: string; count: number; text?: string } | undefined;
}

export interface InspectState {
  /** As new as the stream's events up to this revision (their SSE ids). */
  rev: number;
  plugin: PluginState;
  host: HostState;
  watch: WatchState;
  /** Names only: the values never leave the server. */
  credentials: string[];
  pending: PendingManual[];
  trace: TraceEntry[];
  traceDropped: number;
  /** Known host capabilities, for the refuse switches. */
  capabilities: string[];
}

/** The events of the stream, as `event: <name>` with `data: <json>`. */
export interface StreamEvents {
  trace: TraceEntry[];
  plugin: PluginState;
  host: HostState;
  watch: WatchState;
  credentials: string[];
  pending: PendingManual[];
  progress: ProgressNote;
}

export interface InvokeAnswer {
  invokeId: string;
  /** The answer's `result` or `error` member. */
  answer: { result: unknown } | { error: unknown };
  ms: number;
  /** Set when the answer came by file transport. */
  file?: { bytes?: number; error?: string };
  /** Problems the runtime's check would find (the invoke was sent anyway). */
  problems: ArgumentProblem[];
  /** The progress the invoke reported while it ran. */
  progress?: ProgressNote[];
  /** The response frame was over the platform's 4 MiB result limit; `answer` is what the platform gives instead. */
  tooLarge?: { bytes: number; maxBytes: number };
}

export interface StorageListing {
  kv: { scope: string; key: string; value: unknown; etag: string; size: number; expiresAt?: number }[];
  files: { scope: string; path: string; size: number; contentType: string; etag: string }[];
}

/** One exchange the workbench recorded, as offered for the fixture export. */
export interface ExportCandidate {
  index: number;
  session: number;
  method: string;
  summary: string;
  ok: boolean;
  /** Checked by default: a replay can give the same answer. */
  replayable: boolean;
  /** Why it is not checked by default. */
  why?: string;
}

export interface ReplayResult {
  line: number;
  method: string;
  matched: boolean;
  expected: unknown;
  answer: unknown;
}

/** The report of `executa test`'s checks as the page reads it (the server assigns conform's report to it, so the compiler holds the two together). */
export interface ConformanceReportView {
  passed: boolean;
  ms?: number;
  results: {
    id: string;
    description: string;
    status: "pass" | "fail" | "warn" | "skip";
    message?: string;
    rule?: string;
    ms?: number;
  }[];
}
