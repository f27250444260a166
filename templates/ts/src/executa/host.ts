/**
 * The host client: reverse requests (plugin -> host) on behalf of one invoke, correlated by id,
 * each stamped with the invoke's id and bounded by its deadline.
 */
import { HostCode, HostError } from "./errors.js";
import { randomHex } from "./ids.js";
import type { HostClient, Manifest, SampleRequest, SampleResult, StorageOptions } from "./types.js";
import { isObject } from "./validate.js";
import type { FrameWriter } from "./writer.js";

interface Namespace {
  /** Manifest `host_capabilities`, any of which unlocks the method. */
  capabilities: readonly string[];
  timeoutMs: number;
  timeoutCode: number;
  /** The code of a local refusal (not negotiated, or the capability is missing). */
  refusalCode: number;
  refusal: string;
}

const SAMPLING: Namespace = {
  capabilities: ["llm.sample"],
  timeoutMs: 90_000,
  timeoutCode: HostCode.SamplingTimeout,
  refusalCode: HostCode.SamplingNotNegotiated,
  refusal: "NOT_NEGOTIATED",
};
const STORAGE: Namespace = {
  capabilities: ["aps.kv", "storage.user", "storage.app", "storage.tool"],
  timeoutMs: 30_000,
  timeoutCode: HostCode.StorageTimeout,
  refusalCode: HostCode.StorageNotGranted,
  refusal: "NOT_GRANTED",
};
const OTHER: Namespace = { ...SAMPLING, capabilities: [] };

function namespaceOf(method: string): Namespace {
  if (method.startsWith("sampling/") || method === "agent/complete") return SAMPLING;
  if (method.startsWith("storage/")) return STORAGE;
  return OTHER;
}

const hostGone = (method: string) => new HostError(-32603, `HOST_GONE: stdin closed before the host answered ${method}`, { method });

interface Pending {
  resolve(result: unknown): void;
  reject(error: HostError): void;
}

/** The plugin's side of reverse RPC: the pending table and the negotiated state. */
export class HostChannel {
  /** True once `initialize` was answered "2.0". */
  v2 = false;
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

  /** A response frame from the host: settles the pending request with its id. */
  settle(frame: Record<string, unknown>): void {
    const id = frame.id;
    const entry = typeof id === "string" ? this.pending.get(id) : undefined;
    if (entry === undefined) {
      this.log(`executa: response for unknown request id ${JSON.stringify(id)} ignored`);
      return;
    }
    this.pending.delete(id as string);
    if (Object.hasOwn(frame, "error")) {
      const error = isObject(frame.error) ? frame.error : {};
      const code = typeof error.code === "number" ? error.code : -32603;
      const message = typeof error.message === "string" ? error.message : "the host answered with an error";
      entry.reject(new HostError(code, message, { data: error.data }));
    } else {
      entry.resolve(frame.result);
    }
  }

  request(
    invokeId: string,
    deadlineMs: number,
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs?: number,
  ): Promise<unknown> {
    const ns = namespaceOf(method);
    const refuse = (why: string) =>
      Promise.reject(new HostError(ns.refusalCode, `${ns.refusal}: ${method} ${why}`, { method }));
    if (!this.v2) {
      return refuse(
        "needs Executa protocol 2.0, and this host did not negotiate it (it sent no initialize with protocolVersion \"2.0\")",
      );
    }
    if (ns.capabilities.length > 0 && !ns.capabilities.some((c) => this.capabilities.has(c))) {
      return refuse(`needs "${ns.capabilities[0]}" in host_capabilities (executa.json), then run \`executa manifest\``);
    }
    const wait = Math.min(timeoutMs ?? ns.timeoutMs, deadlineMs - Date.now());
    const timedOut = () =>
      new HostError(ns.timeoutCode, `TIMEOUT: no answer to ${method} within ${Math.max(0, Math.round(wait))} ms`, {
        method,
      });
    if (wait <= 0) return Promise.reject(timedOut());
    if (this.closed) return Promise.reject(hostGone(method));

    const id = randomHex();
    const metadata = isObject(params.metadata) ? params.metadata : {};
    const context = isObject(params.context) ? params.context : {};
    const frameParams = {
      ...params,
      context: { ...context, invoke_id: invokeId },
      metadata: { ...metadata, executa_invoke_id: invokeId },
    };
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
          reject(new HostError(error.code, error.message, { method, data: error.data }));
        },
      });
      this.writer.request(id, method, frameParams);
    });
  }

  /** stdin closed: every request still waiting fails now (its answer can never come), and so does every new one. */
  close(): void {
    this.closed = true;
    for (const entry of this.pending.values()) entry.reject(hostGone("the request"));
    this.pending.clear();
  }

  /** A host client bound to one invoke. */
  client(invokeId: string, deadlineMs: number): HostClient {
    const request = (method: string, params?: Record<string, unknown>, timeoutMs?: number) =>
      this.request(invokeId, deadlineMs, method, params, timeoutMs);
    const storage = (method: string, options: StorageOptions, params: Record<string, unknown>) =>
      request(`storage/${method}`, { ...params, scope: options.scope ?? "tool" }, options.timeoutMs) as Promise<never>;
    return {
      request,
      sample: (req: SampleRequest) => request("sampling/createMessage", samplingParams(req), req.timeoutMs) as Promise<SampleResult>,
      storage: {
        get: (key, options = {}) => storage("get", options, { key }),
        set: (key, value, options = {}) =>
          storage("set", options, { key, value, if_match: options.ifMatch, ttl_seconds: options.ttlSeconds }),
        delete: (key, options = {}) => storage("delete", options, { key, if_match: options.ifMatch }),
        list: (options = {}) =>
          storage("list", options, { prefix: options.prefix, cursor: options.cursor, limit: options.limit, kind: options.kind }),
      },
    };
  }
}

function samplingParams(req: SampleRequest): Record<string, unknown> {
  const messages = req.messages ?? [{ role: "user", content: { type: "text", text: req.prompt ?? "" } }];
  const params: Record<string, unknown> = { messages, maxTokens: req.maxTokens ?? 1024 };
  if (req.systemPrompt !== undefined) params.systemPrompt = req.systemPrompt;
  if (req.temperature !== undefined) params.temperature = req.temperature;
  if (req.stopSequences !== undefined) params.stopSequences = req.stopSequences;
  if (req.modelPreferences !== undefined) params.modelPreferences = req.modelPreferences;
  if (req.metadata !== undefined) params.metadata = req.metadata;
  return params;
}
