/**
 * Deflate in pieces: every piece is compressed on its own and ends on a full flush (the last one
 * finishes the stream), so a piece gives the same bytes wherever it sits. A large file is cut into
 * pieces from its own start, so an executable that embeds an unchanged runtime shares almost every
 * piece with the last one built from that runtime, and a `PieceStore` hands those back instead of
 * compressing them again. With or without a store, the same input gives the same bytes.
 */
import { createHash } from "node:crypto";
import { constants, deflateRawSync } from "node:zlib";

/** The most a piece holds. */
export const PIECE_SIZE = 1 << 20;

/** Compressed pieces by key (the piece's SHA-256, and whether it finishes the stream). */
export interface PieceStore {
  get(key: string): Buffer | undefined;
  put(key: string, packed: Buffer): void;
}

/** `data` cut every PIECE_SIZE bytes from its start. */
export function cut(data: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < data.length; at += PIECE_SIZE) pieces.push(data.subarray(at, at + PIECE_SIZE));
  return pieces;
}

/** A raw deflate stream of the pieces, in order. */
export function deflatePieces(pieces: readonly Buffer[], store?: PieceStore): Buffer {
  const all = pieces.length > 0 ? pieces : [Buffer.alloc(0)];
  return Buffer.concat(
    all.map((piece, i) => {
      const last = i === all.length - 1;
      const key = store && `${createHash("sha256").update(piece).digest("hex")}${last ? ".end" : ""}`;
      const kept = key && store.get(key);
      if (kept) return kept;
      const packed = deflateRawSync(piece, { finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH });
      if (key) store.put(key, packed);
      return packed;
    }),
  );
}
