/**
 * Transcripts for `executa test --fixtures`, in the two formats people have:
 *
 * - the harness recording of the long reference §16(b), one event per line:
 *   `{"t", "kind": "meta" | "req" | "res", ...}`; a `req` is `{id, ns, method, args}`, its `res`
 *   `{id, ok, result | error}`. What concerns a plugin is replayed: `ns: "executa"` (the plugin's
 *   own methods, `args` being the params, as `executa dev --record` writes them) and
 *   `ns: "tools", method: "invoke"` (an app's `tools.invoke({tool_id, method, args})`). Other
 *   namespaces and kinds of the harness (`window`, `auth.refresh`, ...) are app-level: counted
 *   and named in the report, not replayed. `executa dev --record` also writes, between an invoke's
 *   req and res, a `reverse` line for each reverse request the plugin made for it (`for` names the
 *   req); a replay must make the same ones, in order. A `meta` line starts a recorded session
 *   (each `executa dev --record` run appends one): request ids count within it, and a replay
 *   plays each session on a fresh plugin and a fresh mock host, as it was recorded.
 * - our own lines `{"request": {"method", "params"?}, "expect": <pattern> | "none"}`; patterns
 *   match partially (host/match.ts), `"$any"` matches anything.
 *
 * A line in neither format is an error with its line number.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { ExecutaError } from "../common/errors.js";
import type { MockHost } from "./mock/index.js";
import type { ProgressEvent } from "./progress.js";
import type { ReverseExchange } from "./session-types.js";

/** One request to replay and what its answer must match. */
export interface Exchange {
  line: number;
  /** The recorded session it belongs to: 1 for the first `meta` line's, 2 for the next...; 0 before any. */
  session: number;
  method: string;
  params?: Record<string, unknown>;
  /** A pattern of `{result}` or `{error}`; "none" for a notification; undefined: any answer. */
  expect?: unknown;
  /** An app's tools.invoke: the result may be compared with the envelope or with its `data`. */
  app?: boolean;
  /** The reverse requests the plugin made while the recorded invoke ran (`executa dev --record`), in order. */
  reverse?: RecordedReverse[];
}

/** A recorded reverse request: a replay must make the same ones, in order, with params that match (context aside). */
export interface RecordedReverse {
  line: number;
  method: string;
  params?: Record<string, unknown>;
}

export interface Fixture {
  exchanges: Exchange[];
  /** App-level lines that were read but are not about a plugin, e.g. "window.hello" ×2. */
  notReplayed: string[];
}

/** Kinds read but not replayed: app-level token refreshes, and the progress a plugin reported (`executa dev --record`). */
const HARNESS_KINDS_NOT_REPLAYED = new Set(["auth.refresh", "progress"]);

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

function lineError(path: string, line: number, message: string): ExecutaError {
  return new ExecutaError(`${path}:${line}: ${message}`, {
    hint: 'a fixture line is a harness event {"t", "kind": "meta"|"req"|"res", ...} or {"request": {"method", "params"}, "expect": ...}; record one with executa dev --record FILE',
  });
}

/** Reads a fixture file in either format (they may not be mixed with unknown lines). */
export function readFixture(path: string): Fixture {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ExecutaError(`cannot read the fixture ${path}: ${(error as Error).message}`);
  }
  const exchanges: Exchange[] = [];
  let session = 0;
  const requests = new Map<string, Exchange>();
  const skippedIds = new Set<string>();
  const notReplayed = new Map<string, number>();
  const skipLine = (what: string) => notReplayed.set(what, (notReplayed.get(what) ?? 0) + 1);
  text.split("\n").forEach((raw, i) => {
    const n = i + 1;
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw lineError(path, n, `not JSON: ${(error as Error).message}`);
    }
    if (!isObject(value)) throw lineError(path, n, "not a JSON object");
    if ("request" in value) {
      const request = value.request;
      if (!isObject(request) || typeof request.method !== "string" || !("expect" in value))
        throw lineError(path, n, 'an exchange needs "request" {"method", "params"} and "expect"');
      if (request.params !== undefined && !isObject(request.params))
        throw lineError(path, n, "request.params must be an object");
      exchanges.push({
        line: n,
        session,
        method: request.method,
        ...(isObject(request.params) && { params: request.params }),
        expect: value.expect,
      });
      return;
    }
    const kind = value.kind;
    if (typeof kind !== "string")
      throw lineError(path, n, 'neither a harness event (no "kind") nor an exchange (no "request")');
    if (kind === "meta") {
      session++;
      requests.clear();
      skippedIds.clear();
      return;
    }
    if (HARNESS_KINDS_NOT_REPLAYED.has(kind)) return void skipLine(kind);
    const id = JSON.stringify(value.id);
    if (kind === "req") {
      if (value.id === undefined || typeof value.ns !== "string" || typeof value.method !== "string")
        throw lineError(path, n, 'a "req" event needs id, ns and method');
      const args = value.args === undefined ? undefined : value.args;
      if (args !== undefined && !isObject(args)) throw lineError(path, n, "args must be an object");
      let exchange: Exchange | undefined;
      if (value.ns === "executa") exchange = { line: n, session, method: value.method, ...(args && { params: args }) };
      else if (value.ns === "tools" && value.method === "invoke") {
        if (!args || typeof args.method !== "string")
          throw lineError(path, n, 'a tools.invoke "req" needs args.method (the tool)');
        exchange = {
          line: n,
          session,
          method: "invoke",
          params: { tool: args.method, arguments: isObject(args.args) ? args.args : {} },
          app: true,
        };
      }
      if (!exchange) {
        skippedIds.add(id);
        return void skipLine(`${value.ns}.${value.method}`);
      }
      if (requests.has(id)) throw lineError(path, n, `a second "req" with id ${id}`);
      requests.set(id, exchange);
      exchanges.push(exchange);
      return;
    }
    if (kind === "reverse") {
      const exchange = requests.get(JSON.stringify(value.for));
      if (!exchange || typeof value.method !== "string")
        throw lineError(path, n, 'a "reverse" event needs method and "for": the id of an earlier "req"');
      if (value.params !== undefined && !isObject(value.params))
        throw lineError(path, n, "a reverse event's params must be an object");
      (exchange.reverse ??= []).push({
        line: n,
        method: value.method,
        ...(isObject(value.params) && { params: value.params }),
      });
      return;
    }
    if (kind === "res") {
      if (typeof value.ok !== "boolean") throw lineError(path, n, 'a "res" event needs ok: true or false');
      const exchange = requests.get(id);
      if (!exchange) {
        if (skippedIds.has(id)) return; // the answer to an app-level request, counted with it
        throw lineError(path, n, `a "res" for id ${id}, which no earlier "req" has`);
      }
      if (exchange.expect !== undefined) throw lineError(path, n, `a second "res" for id ${id}`);
      exchange.expect = value.ok ? { result: value.result } : { error: value.error };
      return;
    }
    throw lineError(
      path,
      n,
      `unknown kind ${JSON.stringify(kind)} (the harness kinds are meta, req, res, auth.refresh, progress and reverse)`,
    );
  });
  return { exchanges, notReplayed: [...notReplayed].map(([what, count]) => (count > 1 ? `${what} ×${count}` : what)) };
}

/**
 * Writes a harness recording (`executa dev --record`, `executa inspect`'s export): a meta line,
 * then each request and its answer. To a file (appended as they happen), or to a function.
 */
export class HarnessRecorder {
  private readonly started: number;
  private readonly sink: (line: string) => void;
  private nextId = 1;

  /**
   * `startedAt` is the performance.now() that t = 0 stands for (default: now). The URLs of
   * `urlsOf`, the mock host that answered, are written with its stable base (TRANSCRIPT_URL_BASE).
   */
  constructor(
    target: string | ((line: string) => void),
    about: Record<string, unknown>,
    startedAt = performance.now(),
    private readonly urlsOf?: Pick<MockHost, "toTranscript">,
  ) {
    this.started = startedAt;
    if (typeof target === "string") {
      mkdirSync(dirname(target), { recursive: true });
      this.sink = (line) => appendFileSync(target, line + "\n");
    } else this.sink = target;
    this.write(
      {
        kind: "meta",
        harness_version: "0.1",
        session_id: `executa-dev-${Date.now().toString(36)}`,
        recorder: "executa dev",
        ...about,
      },
      performance.now(),
    );
  }

  private write(event: Record<string, unknown>, at: number): void {
    this.sink(
      JSON.stringify({
        t: Math.max(0, Math.round(at - this.started)),
        ...(this.urlsOf ? this.urlsOf.toTranscript(event) : event),
      }),
    );
  }

  /** An executa/progress notification from the plugin: `{t, kind: "progress", invoke_id, type, data}` (and its problem, if any). */
  progress(event: ProgressEvent, at = performance.now()): void {
    this.write(
      {
        kind: "progress",
        invoke_id: event.invokeId ?? null,
        type: event.type ?? "progress",
        data: event.data ?? null,
        ...(event.problem && { problem: event.problem }),
      },
      at,
    );
  }

  /**
   * One exchange: the request the plugin got and the answer it gave (`{result}` or `{error}`), sent and answered at these
   * performance.now() times; between them, each reverse request the plugin made for it: `{t, kind: "reverse", for, method, params, ok, result | error}`.
   */
  exchange(
    method: string,
    params: Record<string, unknown> | undefined,
    answer: Obj,
    sentAt: number,
    answeredAt = performance.now(),
    reverse: readonly ReverseExchange[] = [],
  ): void {
    const id = this.nextId++;
    this.write({ kind: "req", id, ns: "executa", method, ...(params && { args: params }) }, sentAt);
    for (const r of reverse) {
      this.write(
        {
          kind: "reverse",
          for: id,
          method: r.method,
          ...(r.params && { params: r.params }),
          ...("error" in r.answer ? { ok: false, error: r.answer.error } : { ok: true, result: r.answer.result }),
        },
        answeredAt,
      );
    }
    this.write(
      {
        kind: "res",
        id,
        ...("error" in answer ? { ok: false, error: answer.error } : { ok: true, result: answer.result }),
      },
      answeredAt,
    );
  }
}
