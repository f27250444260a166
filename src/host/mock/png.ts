/** Small deterministic PNG images (two colours, horizontal bands) for the mock image model. */
import { createHash } from "node:crypto";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A width x height PNG whose colours and bands follow from `seed` (node:zlib is loaded on first need). */
export async function png(width: number, height: number, seed: string): Promise<Buffer> {
  const { deflateSync } = await import("node:zlib");
  const h = createHash("sha256").update(seed).digest();
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 3, 0, 0, 0], 8); // 1 bit per pixel, palette
  const palette = h.subarray(0, 6);
  const rowBytes = Math.ceil(width / 8) + 1;
  const band = 8 + (h[6]! % 56);
  const raw = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++)
    if (Math.floor(y / band) % 2 === 1) raw.fill(0xff, y * rowBytes + 1, (y + 1) * rowBytes);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("PLTE", palette),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The size a PNG says it has, or undefined for bytes that are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR")
    return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
