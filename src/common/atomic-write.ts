/**
 * Files written whole or not at all: the data goes to a new temporary file beside the target,
 * created exclusively (O_EXCL, a random name, so nothing planted there is opened or followed), and
 * is then renamed over the target (a rename replaces a link at the target; it never writes through it).
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const TRIES = 8;

/** A fresh temporary name in the target's folder (hidden, random). */
export function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString("hex")}.tmp`);
}

/** Creates a new, empty temporary file beside `path` exclusively; returns its name and descriptor. */
function createTemp(path: string, mode: number): { temp: string; fd: number } {
  for (let attempt = 1; ; attempt++) {
    const temp = tempNameFor(path);
    try {
      return {
        temp,
        fd: openSync(
          temp,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
          mode,
        ),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= TRIES) throw error;
    }
  }
}

/** Writes `data` to `path` atomically; the folder is created when missing. On failure the temporary file is removed. */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  const { temp, fd } = createTemp(path, mode);
  try {
    try {
      const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
