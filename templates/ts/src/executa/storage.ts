/** `storage/*`: the host's key-value store, in the host's default scope or the tool, user or app scope. */
import type { InvokeRequests } from "./host.js";

export type StorageScope = "tool" | "user" | "app";

export interface StorageOptions {
  /**
   * Not sent when not given: the host's default applies (`"app"`, the plugin's own app scope).
   * `"tool"` is private to this plugin and user, `"user"` the user's drive, `"app"` one Anna App's.
   */
  scope?: StorageScope;
  /** How long to wait for the host, in ms (30 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

export interface StorageClient {
  get(key: string, options?: StorageOptions): Promise<{ value: unknown; etag?: string; exists: boolean }>;
  set(
    key: string,
    value: unknown,
    options?: StorageOptions & { ifMatch?: string; ttlSeconds?: number },
  ): Promise<{ etag?: string; generation?: number; size_bytes?: number }>;
  delete(key: string, options?: StorageOptions & { ifMatch?: string }): Promise<{ deleted: boolean }>;
  list(
    options?: StorageOptions & { prefix?: string; cursor?: string; limit?: number; kind?: "kv" | "file" },
  ): Promise<{ items: unknown[]; next_cursor?: string | null }>;
}

const SCOPES: readonly string[] = ["tool", "user", "app"];

/** `{scope}` to send, or `{}` when not given (the host's default applies); another value is refused with the namespace's INVALID_REQUEST. */
export function scopeOf(r: InvokeRequests, method: string, scope: string | undefined): { scope?: string } {
  if (scope === undefined) return {};
  if (!SCOPES.includes(scope)) throw r.invalid(method, `scope must be "tool", "user" or "app", got ${JSON.stringify(scope)}`);
  return { scope };
}

export function storageClient(r: InvokeRequests): StorageClient {
  const call = async (name: string, options: StorageOptions, params: Record<string, unknown>) => {
    const method = `storage/${name}`;
    return r.call(method, { ...params, ...scopeOf(r, method, options.scope) }, options.timeoutMs) as Promise<never>;
  };
  return {
    get: (key, options = {}) => call("get", options, { key }),
    set: (key, value, options = {}) => call("set", options, { key, value, if_match: options.ifMatch, ttl_seconds: options.ttlSeconds }),
    delete: (key, options = {}) => call("delete", options, { key, if_match: options.ifMatch }),
    list: (options = {}) => call("list", options, { prefix: options.prefix, cursor: options.cursor, limit: options.limit, kind: options.kind }),
  };
}
