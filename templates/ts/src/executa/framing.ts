/**
 * Framing: raw stdin bytes -> one frame per line. Lines are split on `\n` by hand (no readline),
 * so the 16 MiB limit holds, the bytes can be checked as UTF-8 before anything is decoded, and
 * splitting can stop while the host is not reading stdout (backpressure).
 */
import { MAX_DEPTH, nestsTooDeep, scanDeep } from "./deep.js";

/** The longest frame, in bytes without its line ending (`\n`, or `\r\n`). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface LineHandlers {
  /** One complete line, without its line ending, at most MAX_FRAME_BYTES long. */
  line(bytes: Buffer): void;
  /** A line longer than MAX_FRAME_BYTES was discarded up to its newline. */
  oversize(): void;
  /** True while no more lines should be handed out (see `resume`). */
  blocked(): boolean;
  /** After `end`, once the last line was handed out. */
  ended(): void;
}

/** Splits a byte stream into lines, discarding lines over the limit; a BOM at the very start is dropped. */
export class LineSplitter {
  private partial: Buffer[] = [];
  private partialLength = 0;
  private discarding = false;
  private first = true;
  /** Chunks not split yet (only while blocked), the first from `offset`. */
  private queue: Buffer[] = [];
  private offset = 0;
  private ended = false;

  constructor(private readonly handlers: LineHandlers) {}

  push(chunk: Buffer): void {
    this.queue.push(chunk);
    this.resume();
  }

  /** At end of input: a last line without a newline still counts. */
  end(): void {
    this.ended = true;
    this.resume();
  }

  /** Hands out the lines that wait, until blocked. */
  resume(): void {
    while (this.queue.length > 0 && !this.handlers.blocked()) {
      const chunk = this.queue[0]!;
      const newline = chunk.indexOf(NEWLINE, this.offset);
      if (newline === -1) {
        this.keep(chunk.subarray(this.offset));
        this.queue.shift();
        this.offset = 0;
        continue;
      }
      const piece = chunk.subarray(this.offset, newline);
      this.offset = newline + 1;
      if (this.offset >= chunk.length) {
        this.queue.shift();
        this.offset = 0;
      }
      this.complete(piece);
    }
    if (this.ended && this.queue.length === 0) {
      if (this.discarding) this.handlers.oversize();
      else if (this.partialLength > 0) this.emit(Buffer.concat(this.partial, this.partialLength));
      this.partial = [];
      this.partialLength = 0;
      this.discarding = false;
      this.ended = false;
      this.handlers.ended();
    }
  }

  private complete(piece: Buffer): void {
    const discarding = this.discarding || this.partialLength + piece.length > MAX_FRAME_BYTES + 1;
    let line = piece;
    if (!discarding && this.partialLength > 0) {
      this.partial.push(piece);
      line = Buffer.concat(this.partial, this.partialLength + piece.length);
    }
    this.partial = [];
    this.partialLength = 0;
    this.discarding = false;
    if (discarding) {
      this.first = false;
      this.handlers.oversize();
    } else {
      this.emit(line);
    }
  }

  private emit(line: Buffer): void {
    if (this.first) {
      this.first = false;
      if (line.subarray(0, 3).equals(BOM)) line = line.subarray(3);
    }
    // A `\r` before the newline is part of the line ending, not of the frame.
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > MAX_FRAME_BYTES) this.handlers.oversize();
    else this.handlers.line(line);
  }

  private keep(rest: Buffer): void {
    if (this.discarding || rest.length === 0) return;
    this.partialLength += rest.length;
    if (this.partialLength > MAX_FRAME_BYTES + 1) {
      // Too long already: drop what we have and skip to the next newline.
      this.partial = [];
      this.partialLength = 0;
      this.discarding = true;
      return;
    }
    // Copy: the stream may reuse its buffers.
    this.partial.push(Buffer.from(rest));
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const BLANK = /^[ \t\r\n]*$/;
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
/** Lone UTF-16 surrogates (a pair is one code point in a `u` regex, so it never matches). */
export const LONE_SURROGATE = /\p{Cs}/gu;

export type Decoded =
  | { blank: true }
  | { value: unknown }
  | { parseError: string }
  /** Valid JSON nested deeper than MAX_DEPTH; `id` is its top-level id's text, if it has one; `response`: see scanDeep. */
  | { tooDeep: true; id?: string; response: boolean };

/** Bytes of one line -> the parsed JSON value, or why it is not one. */
export function decodeFrame(bytes: Buffer): Decoded {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { parseError: "Parse error: frame is not valid UTF-8" };
  }
  if (BLANK.test(text)) return { blank: true };
  if (nestsTooDeep(bytes)) {
    const scan = scanDeep(bytes);
    if (!scan.valid) return { parseError: `Parse error: not valid JSON (and nested deeper than ${MAX_DEPTH} levels)` };
    return { tooDeep: true, ...(scan.id !== undefined && { id: scan.id }), response: scan.response };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { parseError: `Parse error: ${(err as Error).message}` };
  }
  return { value: ESCAPED_SURROGATE.test(text) ? wellFormed(value) : value };
}

/** The value with every lone surrogate in its strings and keys replaced by U+FFFD. */
export function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\ufffd");
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(LONE_SURROGATE, "\ufffd"), wellFormed(v)]));
  }
  return value;
}
