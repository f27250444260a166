/**
 * The bytes behind files, uploads and images: in memory, or one file per blob in the mock host's
 * own folder. A blob is named by an id the host makes (never by anything a plugin sends), so no
 * request can reach a path outside that folder.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ID = /^[0-9a-f]{32}$/;

export class QuotaExceeded extends Error {}

export interface Blob {
  id: string;
  size: number;
  /** The quoted MD5 of the bytes, as object stores answer in `ETag`. */
  etag: string;
}

export const etagOf = (bytes: Buffer): string => `"${createHash("md5").update(bytes).digest("hex")}"`;

export class BlobStore {
  private readonly memory = new Map<string, Buffer>();
  private readonly sizes = new Map<string, number>();
  private usedBytes = 0;

  constructor(
    private readonly dir: string | undefined,
    private readonly quotaBytes: number,
  ) {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (!ID.test(name)) continue;
      const size = statSync(join(dir, name)).size;
      this.sizes.set(name, size);
      this.usedBytes += size;
    }
  }

  get used(): number {
    return this.usedBytes;
  }

  /** Stores bytes under a new id (or `id`, a 32-hex name the host derived). Throws QuotaExceeded. */
  put(bytes: Buffer, id: string = randomBytes(16).toString("hex")): Blob {
    if (!ID.test(id)) throw new Error(`not a blob id: ${id}`);
    const before = this.sizes.get(id) ?? 0;
    if (this.usedBytes - before + bytes.length > this.quotaBytes) {
      throw new QuotaExceeded(
        `the mock host keeps at most ${this.quotaBytes} bytes of files, uploads and images (${this.usedBytes} in use)`,
      );
    }
    if (this.dir) writeFileSync(join(this.dir, id), bytes);
    else this.memory.set(id, bytes);
    this.sizes.set(id, bytes.length);
    this.usedBytes += bytes.length - before;
    return { id, size: bytes.length, etag: etagOf(bytes) };
  }

  get(id: string): Buffer | undefined {
    if (!ID.test(id) || !this.sizes.has(id)) return undefined;
    return this.dir ? readFileSync(join(this.dir, id)) : this.memory.get(id);
  }

  has(id: string): boolean {
    return this.sizes.has(id);
  }

  delete(id: string): void {
    const size = this.sizes.get(id);
    if (size === undefined || !ID.test(id)) return;
    if (this.dir) rmSync(join(this.dir, id), { force: true });
    else this.memory.delete(id);
    this.sizes.delete(id);
    this.usedBytes -= size;
  }
}
