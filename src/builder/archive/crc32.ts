/** CRC-32, the one gzip and zip use: zlib's where this Node has it (20.15 and later), else a table. */
import * as zlib from "node:zlib";

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `data`, carried on from `value` (the CRC of what came before). */
export function crc32ByTable(data: Uint8Array, value = 0): number {
  let c = ~value;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export const crc32: (data: Uint8Array, value?: number) => number =
  typeof zlib.crc32 === "function" ? (data, value = 0) => zlib.crc32(data, value) : crc32ByTable;
