/** The small HTTP vocabulary of the inspect server: headers every answer carries, JSON in and out. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ExecutaError } from "../../common/errors.js";

/** The largest request body (a file put into the mock storage travels as base64). */
export const MAX_BODY_BYTES = 24 * 1024 * 1024;

export const SECURITY_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** The page runs only its own script and style, talks only to this server, and cannot be framed. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** An error the API answers with a status and `{error: {message, hint}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError)
    return sendJson(res, error.status, { error: { message: error.message, ...(error.hint && { hint: error.hint }) } });
  if (error instanceof ExecutaError)
    return sendJson(res, 400, { error: { message: error.message, ...(error.hint && { hint: error.hint }) } });
  sendJson(res, 500, { error: { message: (error as Error)?.message ?? String(error) } });
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new HttpError(400, "the body must be a JSON object");
  return value as Record<string, unknown>;
}

/** Typed reads of a request body: a wrong field is a 400 that names it. */
export class Body {
  constructor(private readonly raw: Record<string, unknown>) {}

  string(key: string): string {
    const v = this.raw[key];
    if (typeof v !== "string") throw new HttpError(400, `${key} must be a string`);
    return v;
  }

  optionalString(key: string): string | undefined {
    return this.raw[key] === undefined ? undefined : this.string(key);
  }

  integer(key: string): number {
    const v = this.raw[key];
    if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new HttpError(400, `${key} must be an integer`);
    return v;
  }

  object(key: string, options: { optional?: boolean } = {}): Record<string, unknown> | undefined {
    const v = this.raw[key];
    if (v === undefined && options.optional) return undefined;
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new HttpError(400, `${key} must be a JSON object`);
    return v as Record<string, unknown>;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  value(key: string): unknown {
    return this.raw[key];
  }

  stringList(key: string): string[] {
    const v = this.raw[key];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
      throw new HttpError(400, `${key} must be a list of strings`);
    return v as string[];
  }

  integerList(key: string): number[] {
    const v = this.raw[key];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "number" || !Number.isSafeInteger(x)))
      throw new HttpError(400, `${key} must be a list of integers`);
    return v as number[];
  }
}
