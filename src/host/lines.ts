/** Splits a byte stream into LF-terminated lines without copying more than it must (frames reach 16 MiB). */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private pending = 0;

  constructor(private readonly onLine: (line: Buffer) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
      const piece = chunk.subarray(start, nl);
      if (this.pending > 0) {
        this.chunks.push(piece);
        const line = Buffer.concat(this.chunks, this.pending + piece.length);
        this.chunks = [];
        this.pending = 0;
        this.onLine(line);
      } else {
        this.onLine(piece);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.chunks.push(rest);
      this.pending += rest.length;
    }
  }

  /** Bytes of a line that has not ended yet. */
  get partialBytes(): number {
    return this.pending;
  }

  /** The unfinished line, if any (at end of stream). */
  flush(): Buffer | undefined {
    if (this.pending === 0) return undefined;
    const line = Buffer.concat(this.chunks, this.pending);
    this.chunks = [];
    this.pending = 0;
    return line;
  }
}
