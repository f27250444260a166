export { crc32 } from "./crc32.js";
export type { PieceStore } from "./pieces.js";
export { tarGz, untar, type ArchiveEntry } from "./tar.js";
export { unzip, zip } from "./zip.js";
