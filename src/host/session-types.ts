/** The shapes a session reports, its errors, and the timing helper every caller uses. */
import type { FileTransportRead } from "./file-transport.js";
import type { MockHost } from "./mock/index.js";
import type { ProgressEvent } from "./progress.js";
import type { ResultTooLarge } from "./result-limit.js";

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

/** One reverse request of an invoke and the host's answer (`{result}` or `{error}`). */
export interface ReverseExchange {
  method: string;
  params?: Record<string, unknown>;
  answer: Record<string, unknown>;
}

export interface Response {
  frame: Record<string, unknown>;
  /** Milliseconds from the request to its answer. */
  ms: number;
  /** Set when the answer came by file transport (its `error` set when the pointer was refused or unreadable). */
  file?: FileTransportRead;
  /** An invoke's: the `executa/progress` notifications it sent while it ran, oldest first. */
  progress?: ProgressEvent[];
  /** An invoke's: the reverse requests it made while it ran and the host's answers, oldest first. */
  reverse?: ReverseExchange[];
  /** An invoke's response frame was over the platform's 4 MiB result limit: `frame.result` is what the platform gives instead. */
  tooLarge?: ResultTooLarge;
}

/** A stdout line that is not a JSON-RPC 2.0 frame, and why. */
export interface Noise {
  line: string;
  why: string;
  t: number;
}

/**
 * An answer that answers nothing the host is waiting for: `id: null` (parse errors, invalid
 * requests), no `id` member at all, or an id the host never sent (or already had answered).
 */
export interface Stray {
  t: number;
  kind: "null-id" | "no-id" | "unknown-id";
  frame: Record<string, unknown>;
}

export interface SessionOptions {
  mockHost?: MockHost;
  /**
   * Give the plugin its own temp folder (TMPDIR, TEMP, TMP; default true), removed with the
   * session. File transport is honoured only inside the temp folder the plugin was started with.
   */
  privateTmp?: boolean;
  /** Extra environment on top of the launch's. */
  env?: NodeJS.ProcessEnv;
  /** The manifest's host_capabilities, when describe is not sent on this session. */
  hostCapabilities?: readonly string[];
  /** Keep at most this many records (the oldest go first); default 20 000. */
  maxRecords?: number;
  /** Keep at most this many characters of records (stdout lines and stderr); default 32 Mi. */
  recordBudget?: number;
  recordChars?: number;
  onRecord?: (record: FrameRecord) => void;
  /** Called with each reverse request's record after the mock host answered it. */
  onReverse?: (method: string, params: unknown, answer: unknown) => void;
  /** Called with each `executa/progress` notification as it arrives. */
  onProgress?: (event: ProgressEvent) => void;
}

export interface InvokeOptions {
  credentials?: Record<string, string>;
  invokeId?: string;
  deadlineMs?: number;
  /** How long to wait for the answer; default the tool's timeout as the Agent gives it (60 s). */
  timeoutMs?: number;
  id?: string | number;
}

export function describeExit(exit: ExitInfo | undefined): string {
  if (!exit) return "still running";
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

export class PluginExited extends Error {
  constructor(
    readonly exit: ExitInfo | undefined,
    readonly spawnError?: Error,
  ) {
    super(
      spawnError ? `the plugin could not start: ${spawnError.message}` : `the plugin exited (${describeExit(exit)})`,
    );
  }
}

export class RpcTimeout extends Error {
  constructor(
    readonly method: string,
    readonly ms: number,
  ) {
    super(`no answer to ${method} within ${ms / 1000} s`);
  }
}

export const TIMED_OUT = Symbol("timed out");

/** The value of `promise`, or TIMED_OUT after `ms` (the promise keeps running). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms))),
  ]);
}
