/** Files written under a temporary name and renamed when complete: nothing half-written looks done. */
import { randomBytes } from "node:crypto";
import { writeFileAtomic } from "../common/atomic-write.js";

/** A temporary name beside `path`, for an output a packager writes itself (random, so nothing planted there is guessed). */
export function tempPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(8).toString("hex")}`;
}

/** Writes `data` to `path` through a new, exclusively created temporary file; on failure the temporary file is removed. */
export function writeAtomic(path: string, data: Buffer | string, mode?: number): void {
  writeFileAtomic(path, data, mode);
}
