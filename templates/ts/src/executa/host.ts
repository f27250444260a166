/**
 * The host channel: reverse requests (plugin -> host) on behalf of one invoke, correlated by id,
 * each stamped with the invoke's id and bounded by its deadline. The typed helpers built on it
 * are in client.ts.
 */
import { hostClient } from "./client.js";
import { MAX_DEPTH } from "./deep.js";
import { RpcCode, type HostError } from "./errors.js";
import { randomHex } from "./ids.js";
import { hostError, INVOKE_ID_METADATA, localData, ruleFor } from "./namespaces.js";
import type { HostClient, Manifest } from "./types.js";
import { isObject, jsonType } from "./validate.js";
import type { FrameWriter } from "./writer.js";

const HOST_GONE = -32603;

/** What the typed helpers build on: one invoke's reverse requests, its deadline and its log. */
export interface InvokeRequests {
  /** `host.request`: send one reverse request and wait for its result. */
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** A typed helper's request: the host's result must be an object (else MALFORMED_RESULT). */
  call(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** MALFORMED_RESULT (-32603): the host's result of the method is not of the shape the helper reads, `what` says how. */
  malformed(method: string, what: string): HostError;
  /** A HostError in the method's namespace, its code named. */
  error(method: string, code: number, message: string): HostError;
  /** The namespace's INVALID_REQUEST error, for what the host would refuse (raised before sending). */
  invalid(method: string, message: string): HostError;
  /** The namespace's TIMEOUT error. */
  timeout(method: string, what: string, ms: number): HostError;
  /** The invoke's deadline, Unix epoch ms. */
  readonly deadlineMs: number;
  /** A line on stderr, tagged with the tool and invoke. */
  log(message: string): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: { code: number; message: string; data?: unknown }): void;
}

/** The plugin's side of reverse RPC: the pending table and the negotiated state. */
export class HostChannel {
  /**
   * Why reverse requests are refused locally (`this host's initialize offered protocolVersion "1.1"`),
   * or undefined: no initialize came (Anna's hosts send none, and speak 2.0) or the last one offered 2.x.
   */
  declined: string | undefined = undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly capabilities: ReadonlySet<string>;
  /** Set when stdin closed: the host can answer nothing any more. */
  private closed = false;

  constructor(
    manifest: Manifest,
    private readonly writer: FrameWriter,
    private readonly log: (message: string) => void,
  ) {
    this.capabilities = new Set(manifest.host_capabilities ?? []);
  }

  /** True while a request with this id waits for its answer. */
  waitsFor(id: unknown): boolean {
    return typeof id === "string" && this.pending.has(id);
  }

  /** A response frame from the host: settles the pending request with its id. */
  settle(frame: Record<string, unknown>): void {
    if (!Object.hasOwn(frame, "result") && !Object.hasOwn(frame, "error")) return this.malformedAnswer(frame.id, "has neither result nor error");
    const entry = this.take(frame.id);
    if (entry === undefined) return;
    if (Object.hasOwn(frame, "error")) {
      const error = isObject(frame.error) ? frame.error : {};
      const valid = typeof error.code === "number" && typeof error.message === "string";
      entry.reject(
        valid
          ? { code: error.code as number, message: error.message as string, data: error.data }
          : { code: -32603, message: "the host answered with an error", data: error.data },
      );
    } else {
      entry.resolve(frame.result);
    }
  }

  /** A response nested too deep to read: the request it names fails now. Nothing is written back. */
  tooDeep(id: unknown): void {
    this.malformedAnswer(id, `nests deeper than ${MAX_DEPTH} levels`);
  }

  private malformedAnswer(id: unknown, what: string): void {
    this.take(id)?.reject({ code: RpcCode.InternalError, message: `MALFORMED_RESULT: the host's answer ${what}` });
  }

  /** The pending request with this id, removed from the table; undefined (logged) when there is none. */
  private take(id: unknown): Pending | undefined {
    const entry = typeof id === "string" ? this.pending.get(id) : undefined;
    if (entry === undefined) {
      this.log(`executa: response for unknown request id ${JSON.stringify(id)} ignored`);
      return undefined;
    }
    this.pending.delete(id as string);
    return entry;
  }

  request(
    invokeId: string,
    deadlineMs: number,
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs?: number,
  ): Promise<unknown> {
    const rule = ruleFor(method, params);
    const ns = rule.namespace;
    const fail = (code: number, message: string, data?: unknown) => hostError(ns, method, code, message, data);
    const refusal = ns.errorCodes ? "NOT_GRANTED" : ns.names.get(ns.refusalCode);
    const refuse = (why: string) => Promise.reject(fail(ns.refusalCode, `${refusal}: ${method} ${why}`, localData(ns, "refusal")));
    if (this.declined !== undefined) {
      return refuse(`needs Executa protocol 2.0, and ${this.declined}`);
    }
    if (rule.capabilities.length > 0 && !rule.capabilities.some((c) => this.capabilities.has(c))) {
      return refuse(`needs "${rule.capabilities[0]}" in host_capabilities (executa.json), then run \`executa manifest\``);
    }
    const wait = Math.min(timeoutMs ?? rule.timeoutMs, deadlineMs - Date.now());
    const timedOut = () => fail(ns.timeoutCode, `TIMEOUT: no answer to ${method} within ${Math.max(0, Math.round(wait))} ms`, localData(ns, "timeout"));
    if (wait <= 0) return Promise.reject(timedOut());
    if (this.closed) return Promise.reject(fail(HOST_GONE, `HOST_GONE: stdin closed before the host answered ${method}`));

    const id = randomHex();
    const context = isObject(params.context) ? params.context : {};
    const frameParams: Record<string, unknown> = { ...params, context: { ...context, invoke_id: invokeId } };
    if (INVOKE_ID_METADATA.has(method)) {
      frameParams.metadata = { ...(isObject(params.metadata) ? params.metadata : {}), executa_invoke_id: invokeId };
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(timedOut());
      }, wait);
      this.pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(fail(error.code, error.message, error.data));
        },
      });
      this.writer.request(id, method, frameParams);
    });
  }

  /** stdin closed: every request still waiting fails now (its answer can never come), and so does every new one. */
  close(): void {
    this.closed = true;
    for (const entry of this.pending.values()) {
      entry.reject({ code: HOST_GONE, message: "HOST_GONE: stdin closed before the host answered the request" });
    }
    this.pending.clear();
  }

  /** `executa/progress` for one invoke: needs no capability, and no answer comes. */
  progress(invokeId: string, type: string, data: Record<string, unknown>): void {
    this.writer.notify("executa/progress", { context: { invoke_id: invokeId }, type, data });
  }

  /** The host client of one invoke. */
  client(invokeId: string, deadlineMs: number, log: (message: string) => void): HostClient {
    const named = (method: string, code: number, message: string, data?: unknown) => hostError(ruleFor(method, {}).namespace, method, code, message, data);
    const requests: InvokeRequests = {
      request: (method, params, timeoutMs) => this.request(invokeId, deadlineMs, method, params, timeoutMs),
      call: async (method, params, timeoutMs) => {
        const result = await this.request(invokeId, deadlineMs, method, params, timeoutMs);
        if (!isObject(result)) throw requests.malformed(method, `must be an object, got ${jsonType(result)}`);
        return result;
      },
      malformed: (method, what) => named(method, RpcCode.InternalError, `MALFORMED_RESULT: the host's result ${what}`),
      error: (method, code, message) => named(method, code, message),
      invalid: (method, message) => {
        const ns = ruleFor(method, {}).namespace;
        return named(method, ns.invalidCode, `INVALID_REQUEST: ${message}`, localData(ns, "invalid"));
      },
      timeout: (method, what, ms) => {
        const ns = ruleFor(method, {}).namespace;
        return named(method, ns.timeoutCode, `TIMEOUT: no answer to ${what} within ${Math.max(0, Math.round(ms))} ms`, localData(ns, "timeout"));
      },
      deadlineMs,
      log,
    };
    return hostClient(requests);
  }
}
