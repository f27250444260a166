/**
 * The one writer of stdout: one whole frame per line, in the order they are sent. A response
 * whose frame is over the platform's 4 MiB result limit is replaced by a RESULT_TOO_LARGE error
 * (Anna's hosts would refuse it). Lone surrogates are written as U+FFFD.
 */
import { RpcCode } from "./errors.js";
import { LONE_SURROGATE } from "./framing.js";

/** The platform's limit on one response frame, in bytes without its newline. */
export const MAX_RESULT_BYTES = 4 * 1024 * 1024;

export type Id = string | number | null;

/** Why a value cannot be sent as JSON. */
export class NotJson extends Error {}

const HAS_LONE_SURROGATE = /\p{Cs}/u;
const NON_FINITE = new NotJson("NaN or Infinity");
const rejectNonFinite = (_key: string, value: unknown) => {
  if (typeof value === "number" && !Number.isFinite(value)) throw NON_FINITE;
  return value;
};
const repairSurrogates = (_key: string, value: unknown) => {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\ufffd");
  if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).some((k) => HAS_LONE_SURROGATE.test(k))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(LONE_SURROGATE, "\ufffd"), v]));
  }
  return value;
};

/** JSON text of a value; throws NotJson for NaN or Infinity, or the serialiser's own error. */
export function toJson(value: unknown): string {
  let text = JSON.stringify(value);
  // JSON.stringify writes a lone surrogate as a \udXXX escape; NaN and Infinity as null.
  if (text.includes("\\u") && /\\ud[89a-f]/i.test(text)) text = JSON.stringify(value, repairSurrogates);
  if (text.includes("null")) JSON.stringify(value, rejectNonFinite);
  return text;
}

export class FrameWriter {
  constructor(
    /** The real stdout write (stdout itself is pointed at stderr for everyone else). */
    private readonly write: (text: string) => boolean,
    private readonly log: (message: string) => void,
  ) {}

  /** A request from the plugin to the host (the 4 MiB limit is on results only). */
  request(id: string, method: string, params: unknown): void {
    this.write(toJson({ jsonrpc: "2.0", id, method, params }) + "\n");
  }

  /** A notification (no id, no answer); throws NotJson (or the serialiser's error) when params are not JSON. */
  notify(method: string, params: unknown): void {
    this.write(toJson({ jsonrpc: "2.0", method, params }) + "\n");
  }

  /** A response with a result; throws NotJson (or the serialiser's error) when it is not JSON. */
  result(id: Id, result: unknown): void {
    this.response(id, toJson({ jsonrpc: "2.0", id, result }));
  }

  error(id: Id, code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.response(id, toJson({ jsonrpc: "2.0", id, error }));
  }

  private response(id: Id, text: string): void {
    if (isOverLimit(text)) {
      const size = Buffer.byteLength(text, "utf8");
      this.log(`executa: the response to ${JSON.stringify(id)} is ${size} bytes, over the platform's 4 MiB result limit`);
      const message = `result too large: ${size} bytes is over the platform's 4 MiB result limit; return a file reference instead (host/uploadFile or APS files)`;
      const data = { errorCode: "RESULT_TOO_LARGE", result_size_bytes: size, max_payload_bytes: MAX_RESULT_BYTES };
      text = toJson({ jsonrpc: "2.0", id, error: { code: RpcCode.InternalError, message, data } });
    }
    this.write(text + "\n");
  }
}

function isOverLimit(text: string): boolean {
  // A UTF-16 code unit is 1 to 3 UTF-8 bytes: only the middle range needs counting.
  if (text.length * 3 <= MAX_RESULT_BYTES) return false;
  if (text.length > MAX_RESULT_BYTES) return true;
  return Buffer.byteLength(text, "utf8") > MAX_RESULT_BYTES;
}
