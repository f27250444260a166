/** Files written under a temporary name and renamed when complete: nothing half-written looks done. */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** A temporary name beside `path`. */
export function tempPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** Writes `data` to `path` through a temporary name; on failure the temporary file is removed. */
export function writeAtomic(path: string, data: Buffer | string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, data, mode === undefined ? undefined : { mode });
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
