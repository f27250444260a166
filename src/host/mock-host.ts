/**
 * The mock host that answers a plugin's reverse requests: sampling (canned, echo, or rules from a
 * JSONL file), storage KV and files (in memory, or in a folder), upload. It enforces the invoke_id
 * routing rules of the spec and the manifest's `host_capabilities`, and records every decision.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  capabilitiesForMethod, InvokeContextError, RpcError, SamplingError, StorageError, UploadError, type Json,
} from "../protocol/index.js";
import { ExecutaError } from "../common/errors.js";
import { matches } from "./match.js";

export interface MockRule {
  method: string;
  match?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export type SamplingMode = { kind: "canned"; text: string } | { kind: "echo" } | { kind: "rules"; rules: MockRule[] };

export interface MockHostOptions {
  sampling?: SamplingMode;
  /** Keep storage and uploads in this folder instead of memory. */
  storageDir?: string;
}

export interface ActiveInvoke {
  invokeId: string;
  tool: string;
  requestId: string | number;
  deadlineMs: number;
}

/** What the host knows when a reverse request arrives. */
export interface ReverseContext {
  negotiatedV2: boolean;
  /** The manifest's host_capabilities; undefined when no describe has been seen. */
  hostCapabilities: readonly string[] | undefined;
  activeInvokes: ReadonlyMap<string, ActiveInvoke>;
}

export interface ReverseRecord {
  t: number;
  id: unknown;
  method: string;
  /** `params.context.invoke_id` as the plugin sent it (undefined when absent). */
  invokeId: string | undefined;
  /** `params.metadata.executa_invoke_id` (the legacy echo). */
  legacyInvokeId: string | undefined;
  /** Invoke ids active when it arrived. */
  active: string[];
  routedTo?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

const fail = (code: number, message: string, data?: unknown): Answer => ({ error: { code, message, ...(data !== undefined && { data }) } });
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Loads a rules file: one JSON object per line, `{method, match?, result | error}`. */
export function loadRules(path: string): MockRule[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ExecutaError(`cannot read the rules file ${path}: ${(error as Error).message}`);
  }
  return text.split("\n").flatMap((line, i) => {
    if (!line.trim() || line.trim().startsWith("//")) return [];
    let rule: unknown;
    try {
      rule = JSON.parse(line);
    } catch (error) {
      throw new ExecutaError(`${path}:${i + 1}: not JSON: ${(error as Error).message}`, { hint: "one rule per line: {\"method\": \"sampling/createMessage\", \"match\": {...}, \"result\": {...}}" });
    }
    const r = obj(rule);
    if (typeof r.method !== "string" || (!("result" in r) && !("error" in r))) {
      throw new ExecutaError(`${path}:${i + 1}: a rule needs "method" and "result" or "error"`);
    }
    return [r as unknown as MockRule];
  });
}

/** Parses `--sampling`: "echo", "rules:<file>" (or a path ending in .jsonl), or a canned reply. */
export function samplingModeFrom(value: string | undefined): SamplingMode {
  if (value === undefined) return { kind: "canned", text: "This is a canned reply from the executa mock host." };
  if (value === "echo") return { kind: "echo" };
  if (value.startsWith("rules:")) return { kind: "rules", rules: loadRules(value.slice(6)) };
  if (value.endsWith(".jsonl") && existsSync(value)) return { kind: "rules", rules: loadRules(value) };
  return { kind: "canned", text: value };
}

interface Stored {
  value: unknown;
  etag: string;
  generation: number;
}

function lastUserText(params: Record<string, unknown>): string {
  const messages = Array.isArray(params.messages) ? params.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = obj(obj(messages[i]).content);
    if (typeof content.text === "string") return content.text;
  }
  return typeof params.prompt === "string" ? params.prompt : "";
}

export class MockHost {
  readonly log: ReverseRecord[] = [];
  private readonly kv = new Map<string, Stored>();
  private readonly uploads = new Map<string, { invokeId: string; size: number }>();
  private readonly started = performance.now();

  constructor(private readonly options: MockHostOptions = {}) {
    if (options.storageDir) {
      mkdirSync(options.storageDir, { recursive: true });
      const file = join(options.storageDir, "kv.json");
      if (existsSync(file)) for (const [k, v] of Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, Stored>)) this.kv.set(k, v);
    }
  }

  /** Answers one reverse request (a frame with `method` and `id` from the plugin). */
  handle(frame: Record<string, unknown>, ctx: ReverseContext): Answer {
    const method = String(frame.method);
    const params = obj(frame.params);
    const context = obj(params.context);
    const invokeId = typeof context.invoke_id === "string" ? context.invoke_id : undefined;
    const legacy = obj(params.metadata).executa_invoke_id;
    const record: ReverseRecord = {
      t: performance.now() - this.started,
      id: frame.id,
      method,
      invokeId,
      legacyInvokeId: typeof legacy === "string" ? legacy : undefined,
      active: [...ctx.activeInvokes.keys()],
    };
    const answer = this.answer(method, params, invokeId, ctx, record);
    if ("error" in answer) record.error = answer.error;
    else record.result = answer.result;
    this.log.push(record);
    return answer;
  }

  private answer(method: string, params: Record<string, unknown>, invokeId: string | undefined, ctx: ReverseContext, record: ReverseRecord): Answer {
    const sampling = method.startsWith("sampling/") || method.startsWith("agent/");
    if (!ctx.negotiatedV2) {
      const message = `${method}: protocol 2.0 was not negotiated, so reverse requests are not allowed (answer "2.0" to an initialize that offers it)`;
      if (sampling) return fail(SamplingError.NOT_NEGOTIATED, message);
      if (method.startsWith("storage/") || method.startsWith("files/")) return fail(StorageError.NOT_GRANTED, message);
      if (method === "host/uploadFile") return fail(UploadError.NOT_NEGOTIATED, message);
      return fail(RpcError.MethodNotFound, message);
    }
    // Invoke routing, exactly as the spec's table.
    if (invokeId) {
      if (!ctx.activeInvokes.has(invokeId)) {
        return fail(RpcError.InvalidParams, `context.invoke_id ${JSON.stringify(invokeId)} is not an active invoke`, { errorCode: InvokeContextError.UNKNOWN_INVOKE_CONTEXT });
      }
      record.routedTo = invokeId;
    } else if (ctx.activeInvokes.size === 1) {
      record.routedTo = [...ctx.activeInvokes.keys()][0];
    } else if (ctx.activeInvokes.size > 1) {
      return fail(RpcError.InvalidParams, `params.context.invoke_id is missing and ${ctx.activeInvokes.size} invokes are active; the host never guesses`, { errorCode: InvokeContextError.MISSING_INVOKE_CONTEXT });
    } else {
      return fail(RpcError.InvalidParams, "no invoke is active, so a reverse request has nothing to run on behalf of", { errorCode: InvokeContextError.UNKNOWN_INVOKE_CONTEXT });
    }
    const needs = capabilitiesForMethod(method);
    if (needs.length > 0 && ctx.hostCapabilities && !needs.some((c) => ctx.hostCapabilities!.includes(c))) {
      const message = `${method} needs host_capabilities ${needs.slice(0, 2).join(" or ")} in the manifest`;
      if (sampling) return fail(SamplingError.NOT_NEGOTIATED, message);
      if (method === "host/uploadFile") return fail(UploadError.NOT_GRANTED, message);
      return fail(StorageError.NOT_GRANTED, message);
    }
    if (this.options.sampling?.kind === "rules") {
      const rule = this.options.sampling.rules.find((r) => r.method === method && (r.match === undefined || matches(r.match, params)));
      if (rule) return rule.error ? { error: rule.error } : { result: rule.result };
    }
    if (method === "sampling/createMessage" || method === "agent/complete") return this.sample(params);
    if (method.startsWith("storage/")) return this.storage(method, params, record.routedTo!);
    if (method === "host/uploadFile") return this.upload(params, record.routedTo!);
    return fail(RpcError.MethodNotFound, `the mock host does not implement ${method}`);
  }

  private sample(params: Record<string, unknown>): Answer {
    const messages = params.messages;
    if (!Array.isArray(messages) || messages.length === 0) return fail(SamplingError.INVALID_REQUEST, "messages must be a non-empty list");
    const maxTokens = params.maxTokens;
    if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) return fail(SamplingError.INVALID_REQUEST, "maxTokens must be a positive integer");
    const mode = this.options.sampling ?? samplingModeFrom(undefined);
    const text = mode.kind === "echo" ? lastUserText(params) : mode.kind === "canned" ? mode.text : "no rule matched this request (executa mock host)";
    const words = text.split(/\s+/).filter(Boolean).length;
    return {
      result: {
        role: "assistant",
        content: { type: "text", text },
        model: "executa-mock",
        stopReason: "endTurn",
        usage: { inputTokens: lastUserText(params).split(/\s+/).length, outputTokens: words, totalTokens: words },
      },
    };
  }

  private persist(): void {
    if (this.options.storageDir) writeFileSync(join(this.options.storageDir, "kv.json"), JSON.stringify(Object.fromEntries(this.kv), null, 2));
  }

  private storage(method: string, params: Record<string, unknown>, _invokeId: string): Answer {
    const scope = typeof params.scope === "string" ? params.scope : "app";
    if (!["user", "app", "tool"].includes(scope)) return fail(StorageError.INVALID_REQUEST, `unknown scope ${JSON.stringify(scope)}`);
    const key = typeof params.key === "string" ? params.key : undefined;
    const full = `${scope}:${key}`;
    switch (method) {
      case "storage/get": {
        if (key === undefined) return fail(StorageError.INVALID_REQUEST, "key is required");
        const found = this.kv.get(full);
        return { result: found ? { value: found.value, etag: found.etag, exists: true } : { value: null, exists: false } };
      }
      case "storage/set": {
        if (key === undefined) return fail(StorageError.INVALID_REQUEST, "key is required");
        const before = this.kv.get(full);
        if (typeof params.if_match === "string" && params.if_match !== before?.etag) return fail(StorageError.PRECONDITION_FAILED, "etag mismatch");
        const text = JSON.stringify(params.value ?? null);
        if (Buffer.byteLength(text) > 64 * 1024) return fail(StorageError.VALUE_TOO_LARGE, "values are limited to 64 KB");
        const generation = (before?.generation ?? 0) + 1;
        const etag = createHash("sha256").update(`${generation}:${text}`).digest("hex").slice(0, 16);
        this.kv.set(full, { value: params.value ?? null, etag, generation });
        this.persist();
        return { result: { etag, generation, size_bytes: Buffer.byteLength(text) } };
      }
      case "storage/delete": {
        if (key === undefined) return fail(StorageError.INVALID_REQUEST, "key is required");
        this.kv.delete(full);
        this.persist();
        return { result: { deleted: true } };
      }
      case "storage/list": {
        const prefix = `${scope}:${typeof params.prefix === "string" ? params.prefix : ""}`;
        const items = [...this.kv.entries()].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => ({ key: k.slice(scope.length + 1), etag: v.etag, kind: "kv" }));
        return { result: { items, next_cursor: null } };
      }
      default:
        return fail(RpcError.MethodNotFound, `the mock host does not implement ${method}`);
    }
  }

  private upload(params: Record<string, unknown>, invokeId: string): Answer {
    const mode = params.mode ?? "inline";
    if (mode === "inline") {
      if (typeof params.content_b64 !== "string" || typeof params.filename !== "string") return fail(UploadError.INVALID_REQUEST, "inline uploads need filename and content_b64");
      const bytes = Buffer.from(params.content_b64, "base64");
      if (bytes.length > 8 * 1024 * 1024) return fail(UploadError.TOO_LARGE, "inline uploads are limited to 8 MiB");
      const r2Key = `exec-uploads/dev/mock-user/plugin/${invokeId}/${typeof params.purpose === "string" ? params.purpose : "user_artifact"}/${params.filename}`;
      this.uploads.set(r2Key, { invokeId, size: bytes.length });
      let url = `mock://uploads/${r2Key}`;
      if (this.options.storageDir) {
        const dir = join(this.options.storageDir, "uploads");
        mkdirSync(dir, { recursive: true });
        const file = join(dir, r2Key.replace(/[^A-Za-z0-9._-]+/g, "_"));
        writeFileSync(file, bytes);
        url = `file://${file}`;
      }
      return { result: { download_url: url, r2_key: r2Key, expires_at: new Date(Date.now() + 3600_000).toISOString(), size_bytes: bytes.length } };
    }
    if (mode === "confirm") {
      const key = String(params.r2_key ?? "");
      const found = this.uploads.get(key);
      if (!found) return fail(UploadError.NOT_FOUND, `no object at ${key}`);
      if (found.invokeId !== invokeId) return fail(UploadError.INVALID_REQUEST, "r2_key does not belong to this invoke");
      return { result: { download_url: `mock://uploads/${key}`, r2_key: key, size_bytes: found.size, expires_at: new Date(Date.now() + 3600_000).toISOString() } };
    }
    return fail(UploadError.INVALID_REQUEST, `the mock host supports upload modes inline and confirm, not ${JSON.stringify(mode)}`);
  }
}

export type { Json };
