/** Tar (ustar) writing and reading, gzip-wrapped: small, deterministic, with file modes. */
import { gunzipSync } from "node:zlib";
import { crc32 } from "./crc32.js";
import { cut, deflatePieces, PIECE_SIZE, type PieceStore } from "./pieces.js";

export interface ArchiveEntry {
  /** Path inside the archive, `/`-separated. */
  path: string;
  data: Buffer;
  /** Unix mode bits, e.g. 0o755. */
  mode: number;
}

/** The fixed time stamp of every entry (the one npm uses), so the same files give the same bytes. */
export const ARCHIVE_MTIME = Date.UTC(1985, 9, 26, 8, 15, 0) / 1000;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function header(entry: ArchiveEntry): Buffer {
  const h = Buffer.alloc(512);
  const name = Buffer.from(entry.path, "utf8");
  if (name.length > 100) {
    const slash = entry.path.lastIndexOf("/", 155);
    if (slash <= 0 || Buffer.byteLength(entry.path.slice(slash + 1)) > 100) {
      throw new Error(`archive path too long for ustar: ${entry.path}`);
    }
    h.write(entry.path.slice(slash + 1), 0, "utf8");
    h.write(entry.path.slice(0, slash), 345, "utf8");
  } else {
    name.copy(h, 0);
  }
  h.write(octal(entry.mode & 0o7777, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(entry.data.length, 12), 124, "ascii");
  h.write(octal(ARCHIVE_MTIME, 12), 136, "ascii");
  h.write("        ", 148, "ascii");
  h.write("0", 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + " ", 148, "ascii");
  return h;
}

/**
 * The tar stream of `entries`, in the order given, as pieces to deflate: a file of PIECE_SIZE or
 * more is cut from its own start; headers, padding and smaller files run together.
 */
function tarPieces(entries: readonly ArchiveEntry[]): Buffer[] {
  const pieces: Buffer[] = [];
  let run: Buffer[] = [];
  let length = 0;
  const add = (part: Buffer) => {
    run.push(part);
    length += part.length;
  };
  const flush = () => {
    if (run.length > 0) pieces.push(Buffer.concat(run));
    run = [];
    length = 0;
  };
  for (const entry of entries) {
    add(header(entry));
    if (entry.data.length >= PIECE_SIZE) {
      flush();
      pieces.push(...cut(entry.data));
    } else add(entry.data);
    const pad = (512 - (entry.data.length % 512)) % 512;
    if (pad) add(Buffer.alloc(pad));
    if (length >= PIECE_SIZE) flush();
  }
  add(Buffer.alloc(1024));
  flush();
  return pieces;
}

/** The gzip header: no name or time stamp, and a fixed OS byte (Unix), so every host writes the same bytes. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** A .tar.gz of `entries`, deflated in pieces (see pieces.ts); `store` keeps and hands back compressed pieces. */
export function tarGz(entries: readonly ArchiveEntry[], store?: PieceStore): Buffer {
  const pieces = tarPieces(entries);
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    crc = crc32(piece, crc);
    size += piece.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, deflatePieces(pieces, store), trailer]);
}

function readOctal(buf: Buffer, start: number, length: number): number {
  if (buf[start]! & 0x80) {
    let n = 0;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + buf[i]!;
    return n;
  }
  const text = buf
    .toString("ascii", start, start + length)
    .replace(/\0.*$/s, "")
    .trim();
  return text ? parseInt(text, 8) : 0;
}

function cString(buf: Buffer, start: number, length: number): string {
  const end = buf.indexOf(0, start);
  return buf.toString("utf8", start, end < 0 || end > start + length ? start + length : end);
}

/** The regular files of a tar (or, when `gzipped`, .tar.gz) archive; pax and GNU long names understood. */
export function untar(archive: Buffer, gzipped = true): ArchiveEntry[] {
  const buf = gzipped ? gunzipSync(archive) : archive;
  const out: ArchiveEntry[] = [];
  let off = 0;
  let longName: string | undefined;
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const size = readOctal(h, 124, 12);
    const type = String.fromCharCode(h[156]!);
    const data = buf.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      const match = /\d+ path=([^\n]*)\n/.exec(data.toString("utf8"));
      if (match) longName = match[1];
      continue;
    }
    if (type === "L") {
      longName = data.toString("utf8").replace(/\0+$/, "");
      continue;
    }
    if (type !== "0" && type !== "\0") {
      longName = undefined;
      continue;
    }
    const prefix = cString(h, 345, 155);
    const name = cString(h, 0, 100);
    out.push({
      path: longName ?? (prefix ? `${prefix}/${name}` : name),
      data: Buffer.from(data),
      mode: readOctal(h, 100, 8),
    });
    longName = undefined;
  }
  return out;
}
