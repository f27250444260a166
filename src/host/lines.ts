/**
 * Splits a byte stream into LF-terminated lines without copying more than it must (frames reach
 * 16 MiB), and never holds more than one line's limit: a longer line is counted and discarded up
 * to its newline, then reported with its first bytes.
 */
import { MAX_FRAME_BYTES } from "../protocol/index.js";

/** How much of a cut line is kept, to show what it was. */
const HEAD_BYTES = 200;

export interface OversizeLine {
  /** Bytes of the line without its newline (counted, not kept). */
  bytes: number;
  /** Its first bytes. */
  head: Buffer;
  /** False when the stream ended before the line did. */
  ended: boolean;
}

export interface LineSplitterOptions {
  /** The longest line delivered, without its LF; a CR before the LF is not counted. Default 16 MiB. */
  maxBytes?: number;
  onOversize?: (line: OversizeLine) => void;
}

export class LineSplitter {
  private chunks: Buffer[] = [];
  private pending = 0;
  /** Set while a line over the limit is being skipped. */
  private cut: { bytes: number; head: Buffer } | undefined;
  private readonly maxBytes: number;

  constructor(
    private readonly onLine: (line: Buffer) => void,
    private readonly options: LineSplitterOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? MAX_FRAME_BYTES;
  }

  private tooLong(bytes: number, last: number | undefined): boolean {
    return bytes > this.maxBytes && !(bytes === this.maxBytes + 1 && last === 0x0d);
  }

  private startCut(pieces: Buffer[], bytes: number): void {
    const first: Buffer[] = [];
    for (let kept = 0, i = 0; kept < HEAD_BYTES && i < pieces.length; kept += pieces[i]!.length, i++)
      first.push(pieces[i]!);
    // A copy: a slice would keep the whole chunk it came from alive.
    this.cut = { bytes, head: Buffer.from(Buffer.concat(first).subarray(0, HEAD_BYTES)) };
    this.chunks = [];
    this.pending = 0;
  }

  push(chunk: Buffer): void {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.cut) {
        this.options.onOversize?.({ bytes: this.cut.bytes + piece.length, head: this.cut.head, ended: true });
        this.cut = undefined;
        continue;
      }
      const bytes = this.pending + piece.length;
      const last = piece.length ? piece[piece.length - 1] : this.chunks.at(-1)?.at(-1);
      if (this.tooLong(bytes, last)) {
        this.startCut([...this.chunks, piece], bytes);
        this.options.onOversize?.({ bytes, head: this.cut!.head, ended: true });
        this.cut = undefined;
        continue;
      }
      if (this.pending > 0) {
        this.chunks.push(piece);
        const line = Buffer.concat(this.chunks, bytes);
        this.chunks = [];
        this.pending = 0;
        this.onLine(line);
      } else {
        this.onLine(piece);
      }
    }
    if (start >= chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.cut) {
      this.cut.bytes += rest.length;
      return;
    }
    if (this.pending + rest.length > this.maxBytes + 1) {
      this.startCut([...this.chunks, rest], this.pending + rest.length);
      return;
    }
    this.chunks.push(rest);
    this.pending += rest.length;
  }

  /** Bytes of a line that has not ended yet. */
  get partialBytes(): number {
    return this.cut ? this.cut.bytes : this.pending;
  }

  /** The unfinished line, if any (at end of stream); a line over the limit is reported instead. */
  flush(): Buffer | undefined {
    if (this.cut) {
      this.options.onOversize?.({ bytes: this.cut.bytes, head: this.cut.head, ended: false });
      this.cut = undefined;
      return undefined;
    }
    if (this.pending === 0) return undefined;
    const line = Buffer.concat(this.chunks, this.pending);
    this.chunks = [];
    this.pending = 0;
    return line;
  }
}
