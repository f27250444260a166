/**
 * The one writer of stdout: one whole frame per line, in the order they are sent. Responses
 * whose frame is over 512 KiB go by file transport.
 */
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "./ids.js";

export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;

export type Id = string | number | null;

export class FrameWriter {
  constructor(
    /** The real stdout write (stdout itself is pointed at stderr for everyone else). */
    private readonly write: (text: string) => boolean,
    private readonly log: (message: string) => void,
  ) {}

  /** A request from the plugin to the host (never file-transported). */
  request(id: string, method: string, params: unknown): void {
    this.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  }

  result(id: Id, result: unknown): void {
    let text: string;
    try {
      text = JSON.stringify({ jsonrpc: "2.0", id, result });
    } catch (err) {
      this.log(`executa: could not serialise the result of request ${JSON.stringify(id)}: ${(err as Error).message}`);
      this.error(id, -32603, "Result is not serialisable as JSON; see the plugin's stderr");
      return;
    }
    this.response(id, text);
  }

  error(id: Id, code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.response(id, JSON.stringify({ jsonrpc: "2.0", id, error }));
  }

  private response(id: Id, text: string): void {
    if (isOverThreshold(text)) {
      const path = this.toFile(text);
      if (path !== undefined) text = JSON.stringify({ jsonrpc: "2.0", id, __file_transport: path });
    }
    this.write(text + "\n");
  }

  /** Writes the whole response to a fresh 0600 file; undefined when that fails (then it goes inline). */
  private toFile(text: string): string | undefined {
    const path = join(tmpdir(), `executa-resp-${randomHex()}.json`);
    let fd: number | undefined;
    try {
      fd = openSync(path, "wx", 0o600);
      writeSync(fd, text);
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
