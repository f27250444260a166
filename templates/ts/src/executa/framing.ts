/**
 * Framing: raw stdin bytes -> one frame per line. Lines are split on `\n` by hand (no readline),
 * so the 16 MiB limit holds and the bytes can be checked as UTF-8 before anything is decoded.
 */

/** The longest frame, in bytes without its newline. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface LineHandlers {
  /** One complete line (without `\n`), at most MAX_FRAME_BYTES long. */
  line(bytes: Buffer): void;
  /** A line longer than MAX_FRAME_BYTES was discarded up to its newline. */
  oversize(): void;
}

/** Splits a byte stream into lines, discarding lines over the limit. */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private length = 0;
  private discarding = false;

  constructor(
    private readonly handlers: LineHandlers,
    private readonly maxBytes = MAX_FRAME_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      const size = this.length + (newline - start);
      if (this.discarding || size > this.maxBytes) {
        this.reset();
        this.handlers.oversize();
      } else if (this.length === 0) {
        this.handlers.line(chunk.subarray(start, newline));
      } else {
        this.chunks.push(chunk.subarray(start, newline));
        const line = Buffer.concat(this.chunks, size);
        this.reset();
        this.handlers.line(line);
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** At end of input: a last line without a newline still counts. */
  end(): void {
    if (this.discarding) this.handlers.oversize();
    else if (this.length > 0) this.handlers.line(Buffer.concat(this.chunks, this.length));
    this.reset();
  }

  private keep(rest: Buffer): void {
    if (this.discarding) return;
    this.length += rest.length;
    if (this.length > this.maxBytes) {
      // Too long already: drop what we have and skip to the next newline.
      this.chunks = [];
      this.length = 0;
      this.discarding = true;
      return;
    }
    // Copy: the stream may reuse its buffers.
    this.chunks.push(Buffer.from(rest));
  }

  private reset(): void {
    this.chunks = [];
    this.length = 0;
    this.discarding = false;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes of one line -> the parsed JSON value, or the reason it is not one. */
export function decodeFrame(bytes: Buffer): { blank: true } | { value: unknown } | { error: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: "Parse error: frame is not valid UTF-8" };
  }
  text = text.trim();
  if (text === "") return { blank: true };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { error: `Parse error: ${(err as Error).message}` };
  }
}
