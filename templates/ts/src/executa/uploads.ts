/**
 * Bytes to the host: `host/uploadFile` (transient uploads, inline or negotiate + PUT + confirm)
 * and `files/*` (object storage: upload_begin + PUT + upload_complete, download URLs, list,
 * delete). The PUT goes to the presigned URL the host gave, with the global `fetch`.
 */
import type { InvokeRequests } from "./host.js";
import { PUT_TIMEOUT_MS } from "./namespaces.js";
import { HostCode } from "./errors.js";
import { scopeOf, type StorageScope } from "./storage.js";
import { isObject } from "./validate.js";

/** The most bytes an inline upload carries; larger goes negotiate + PUT + confirm. */
export const INLINE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

/** Bytes, or a string sent as its UTF-8. */
export type Bytes = Uint8Array | string;

export interface UploadOptions {
  filename: string;
  mimeType: string;
  /** `image_input`, `image_reference` or `user_artifact`. */
  purpose?: string;
  metadata?: Record<string, unknown>;
  /** How long to wait for each step, in ms (by default inline 120 s, negotiate 60 s, confirm 30 s; the PUT 120 s). */
  timeoutMs?: number;
}

export interface UploadResult {
  download_url: string;
  r2_key: string;
  expires_at: string;
  size_bytes: number;
  [key: string]: unknown;
}

export interface FilesOptions {
  /** Not sent when not given (the host's default, `"app"`, applies), as for storage. */
  scope?: StorageScope;
  /** How long to wait for the host, in ms (upload_begin and upload_complete 60 s, others 30 s; the PUT 120 s). */
  timeoutMs?: number;
}

export interface FilesClient {
  /** `files/upload_begin`, a PUT of the bytes, `files/upload_complete`: the host's confirmation. */
  upload(path: string, bytes: Bytes, options?: FilesOptions & { contentType?: string; metadata?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  /** `files/download_url`: a URL to read the file (`expiresIn` seconds). */
  downloadUrl(path: string, options?: FilesOptions & { expiresIn?: number }): Promise<{ url: string; expires_at: string }>;
  list(
    options?: FilesOptions & { prefix?: string; cursor?: string; limit?: number },
  ): Promise<{ items: { path: string; size_bytes: number; content_type: string; updated_at: string }[]; next_cursor: string | null }>;
  delete(path: string, options?: FilesOptions): Promise<{ deleted: boolean }>;
}

const toBytes = (bytes: Bytes): Uint8Array => (typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes);

/** The members that are given. */
const given = (members: Record<string, unknown>) => Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined));

/**
 * PUTs the bytes to a presigned URL with the host's headers, within the PUT timeout and the
 * deadline. A status other than 200 or 201, or no answer, fails with `failCode` (the namespace's
 * TIMEOUT when the wait ran out). Returns the response's ETag header.
 */
async function put(r: InvokeRequests, method: string, failCode: number, offer: Record<string, unknown>, bytes: Uint8Array, timeoutMs?: number): Promise<string | undefined> {
  const url = offer.put_url;
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
    throw r.error(method, failCode, `the host's put_url is not an http(s) URL: ${JSON.stringify(url)}`);
  }
  const headers = isObject(offer.headers)
    ? Object.fromEntries(Object.entries(offer.headers).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};
  const wait = Math.min(timeoutMs ?? PUT_TIMEOUT_MS, r.deadlineMs - Date.now());
  if (wait <= 0) throw r.timeout(method, "the PUT of the bytes", wait);
  let response: Response;
  try {
    response = await fetch(url, { method: "PUT", headers, body: new Uint8Array(bytes), signal: AbortSignal.timeout(wait) });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") throw r.timeout(method, "the PUT of the bytes", wait);
    throw r.error(method, failCode, `the PUT of the bytes failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  await response.arrayBuffer().catch(() => undefined);
  if (response.status !== 200 && response.status !== 201) {
    throw r.error(method, failCode, `the PUT of the bytes was answered HTTP ${response.status}`);
  }
  return response.headers.get("etag") ?? undefined;
}

/** `host/uploadFile`: inline up to 8 MiB, else negotiate, PUT and confirm. */
export async function upload(r: InvokeRequests, data: Bytes, options: UploadOptions): Promise<UploadResult> {
  const method = "host/uploadFile";
  const bytes = toBytes(data);
  const common = { filename: options.filename, mime_type: options.mimeType, ...given({ purpose: options.purpose, metadata: options.metadata }) };
  if (bytes.length <= INLINE_UPLOAD_MAX_BYTES) {
    const contentB64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
    return (await r.call(method, { mode: "inline", ...common, content_b64: contentB64 }, options.timeoutMs)) as UploadResult;
  }
  const offer = await r.call(method, { mode: "negotiate", ...common, size_bytes: bytes.length }, options.timeoutMs);
  await put(r, method, HostCode.UploadStorageError, offer, bytes, options.timeoutMs);
  return (await r.call(method, { mode: "confirm", r2_key: offer.r2_key }, options.timeoutMs)) as UploadResult;
}

export function filesClient(r: InvokeRequests): FilesClient {
  const scope = (method: string, options: FilesOptions) => scopeOf(r, method, options.scope);
  return {
    upload: async (path, data, options = {}) => {
      const bytes = toBytes(data);
      const begin = "files/upload_begin";
      const s = scope(begin, options);
      const contentType = given({ content_type: options.contentType });
      const offer = await r.call(begin, { path, ...s, size_bytes: bytes.length, ...contentType, ...given({ metadata: options.metadata }) }, options.timeoutMs);
      const etag = await put(r, begin, HostCode.StorageUpstream, offer, bytes, options.timeoutMs);
      const complete = { path, ...s, ...given({ etag }), size_bytes: bytes.length, ...contentType };
      return r.call("files/upload_complete", complete, options.timeoutMs);
    },
    downloadUrl: async (path, options = {}) => {
      const method = "files/download_url";
      const expires = given({ expires_in: options.expiresIn, ttl_seconds: options.expiresIn });
      const a = await r.call(method, { path, ...scope(method, options), ...expires }, options.timeoutMs);
      return { url: (typeof a.url === "string" ? a.url : a.get_url) as string, expires_at: a.expires_at as string };
    },
    list: async (options = {}) => {
      const method = "files/list";
      const params = { ...scope(method, options), ...given({ prefix: options.prefix, cursor: options.cursor, limit: options.limit }) };
      return r.call(method, params, options.timeoutMs) as Promise<never>;
    },
    delete: async (path, options = {}) => {
      const method = "files/delete";
      return r.call(method, { path, ...scope(method, options) }, options.timeoutMs) as Promise<never>;
    },
  };
}
