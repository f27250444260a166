/**
 * The one writer of stdout: one whole frame per line, in the order they are sent. Responses
 * whose frame is over 512 KiB go by file transport. Lone surrogates are written as U+FFFD.
 */
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RpcCode } from "./errors.js";
import { LONE_SURROGATE, MAX_FRAME_BYTES } from "./framing.js";
import { randomHex } from "./ids.js";

export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;

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

  /** A request from the plugin to the host (never file-transported). */
  request(id: string, method: string, params: unknown): void {
    this.write(toJson({ jsonrpc: "2.0", id, method, params }) + "\n");
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
    if (isOverThreshold(text)) {
      const bytes = Buffer.from(text, "utf8");
      const path = this.toFile(bytes);
      if (path !== undefined) {
        text = JSON.stringify({ jsonrpc: "2.0", id, __file_transport: path });
      } else if (bytes.length > MAX_FRAME_BYTES) {
        this.log(`executa: the response to ${JSON.stringify(id)} is ${bytes.length} bytes, over the 16 MiB frame limit`);
        text = JSON.stringify({
          jsonrpc: "2.0",
          id,
          error: { code: RpcCode.InternalError, message: "Response exceeds 16 MiB and could not go by file transport; see the plugin's stderr" },
        });
      }
    }
    this.write(text + "\n");
  }

  /** Writes the whole response to a fresh 0600 file; undefined when that fails (nothing is left behind). */
  private toFile(bytes: Buffer): string | undefined {
    const path = join(resolve(tmpdir()), `executa-resp-${randomHex()}.json`);
    let fd: number | undefined;
    try {
      fd = openSync(path, "wx", 0o600);
      for (let done = 0; done < bytes.length; ) {
        const n = writeSync(fd, bytes, done);
        if (n <= 0) throw new Error(`short write: ${done} of ${bytes.length} bytes`);
        done += n;
      }
      closeSync(fd);
      return path;
    } catch (err) {
      if (fd !== undefined) {
        try {
          closeSync(fd);
        } catch {}
        try {
          unlinkSync(path);
        } catch {}
      }
      this.log(`executa: file transport failed (${(err as Error).message}); sending the response inline`);
      return undefined;
    }
  }
}

function isOverThreshold(text: string): boolean {
  // A UTF-16 code unit is 1 to 3 UTF-8 bytes: only the middle range needs counting.
  if (text.length * 3 <= FILE_TRANSPORT_THRESHOLD_BYTES) return false;
  if (text.length > FILE_TRANSPORT_THRESHOLD_BYTES) return true;
  return Buffer.byteLength(text, "utf8") > FILE_TRANSPORT_THRESHOLD_BYTES;
}
