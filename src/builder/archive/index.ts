export { tarGz, untar, type ArchiveEntry } from "./tar.js";
export { crc32, unzip, zip } from "./zip.js";
