export { ARCHIVE_MTIME, tar, tarGz, untar, untarOne, type ArchiveEntry } from "./tar.js";
export { crc32, unzip, zip } from "./zip.js";
