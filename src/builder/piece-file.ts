/**
 * The compressed pieces of the last archive `executa build` wrote for one runtime and platform,
 * kept in one file in `archive-pieces` of the build cache: the next archive for that runtime and
 * platform takes the pieces it shares with the last one from there (see archive/pieces.ts). A piece
 * is checked against its SHA-256 before use; a missing, unreadable or damaged file only means
 * compressing again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PieceStore } from "./archive/index.js";
import { buildCacheDir } from "./cache.js";
import { sha256Of } from "./outputs.js";
import { writeAtomic } from "./write-atomic.js";

/** The file's first line is JSON, `[FORMAT, [[key, length, sha256], ...]]`; the pieces' bytes follow in that order. */
const FORMAT = "executa-archive-pieces 1";

export function pieceFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(buildCacheDir(env), "archive-pieces");
}

interface Piece {
  packed: Buffer;
  /** Of `packed`. */
  sha256: string;
}

function read(path: string): Map<string, Piece> {
  const kept = new Map<string, Piece>();
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return kept;
  }
  const newline = data.indexOf(10);
  try {
    const [format, pieces] = JSON.parse(data.toString("utf8", 0, newline)) as [string, [string, number, string][]];
    if (format !== FORMAT) return kept;
    let at = newline + 1;
    for (const [key, length, hash] of pieces) {
      kept.set(key, { packed: data.subarray(at, at + length), sha256: hash });
      at += length;
    }
  } catch {
    kept.clear();
  }
  return kept;
}

export class PieceFile implements PieceStore {
  private readonly path: string;
  private readonly kept: Map<string, Piece>;
  private readonly used = new Map<string, Piece>();
  private added = false;

  /** `name`: the runtime and platform, e.g. `node-sea-22.23.2-linux-x86_64`. */
  constructor(name: string, env: NodeJS.ProcessEnv = process.env) {
    this.path = join(pieceFolder(env), `${name}.pieces`);
    this.kept = read(this.path);
  }

  get(key: string): Buffer | undefined {
    const kept = this.kept.get(key);
    if (!kept || sha256Of(kept.packed) !== kept.sha256) return undefined;
    this.used.set(key, kept);
    return kept.packed;
  }

  put(key: string, packed: Buffer): void {
    this.used.set(key, { packed, sha256: sha256Of(packed) });
    this.added = true;
  }

  /** Keeps the pieces this archive used, when it compressed any itself. */
  save(): void {
    if (!this.added) return;
    const pieces = [...this.used];
    const index = JSON.stringify([FORMAT, pieces.map(([key, { packed, sha256 }]) => [key, packed.length, sha256])]);
    try {
      writeAtomic(this.path, Buffer.concat([Buffer.from(`${index}\n`), ...pieces.map(([, { packed }]) => packed)]));
    } catch {
      // A cache that cannot be written (read-only, full) costs the next build time, never its bytes.
    }
  }
}
