/** Zip writing (deflate) and reading, deterministic, with Unix modes in the external attributes. */
import { inflateRawSync } from "node:zlib";
import { crc32 } from "./crc32.js";
import { cut, deflatePieces, type PieceStore } from "./pieces.js";
import type { ArchiveEntry } from "./tar.js";

// 1985-10-26 08:15:00, the archives' fixed time stamp, in MS-DOS form.
const DOS_TIME = (8 << 11) | (15 << 5);
const DOS_DATE = ((1985 - 1980) << 9) | (10 << 5) | 26;

/** A zip archive of `entries` (deflated in pieces, see pieces.ts), in the order given. */
export function zip(entries: readonly ArchiveEntry[], store?: PieceStore): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.path, "utf8");
    const packed = deflatePieces(cut(entry.data), store);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | (entry.mode & 0o7777)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** The files of a zip archive (stored or deflated), with the Unix modes it records. */
export function unzip(archive: Buffer): ArchiveEntry[] {
  const endAt = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error("not a zip archive");
  const count = archive.readUInt16LE(endAt + 10);
  let off = archive.readUInt32LE(endAt + 16);
  const out: ArchiveEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(off) !== 0x02014b50) throw new Error("corrupt zip central directory");
    const method = archive.readUInt16LE(off + 10);
    const crc = archive.readUInt32LE(off + 16);
    const packedSize = archive.readUInt32LE(off + 20);
    const nameLength = archive.readUInt16LE(off + 28);
    const extraLength = archive.readUInt16LE(off + 30);
    const commentLength = archive.readUInt16LE(off + 32);
    const mode = (archive.readUInt32LE(off + 38) >>> 16) & 0o7777;
    const localAt = archive.readUInt32LE(off + 42);
    const path = archive.toString("utf8", off + 46, off + 46 + nameLength);
    const dataAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const packed = archive.subarray(dataAt, dataAt + packedSize);
    const data = method === 8 ? inflateRawSync(packed) : Buffer.from(packed);
    if (crc32(data) !== crc) throw new Error(`zip entry ${path}: CRC mismatch`);
    out.push({ path, data, mode });
    off += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}
