/**
 * What an upgrade does to each runtime file, from three views of it: the project's copy, the
 * toolchain's file of the version the project carries (its hash), and the toolchain's file now.
 */
import { runtimeHash } from "./record.js";
import type { RuntimeHashes } from "./runtime.js";

/**
 * - `update`: the author left it alone; the toolchain's new file replaces it.
 * - `add`: new in this version (or missing from the project).
 * - `remove`: the new version dropped it and the author left it alone.
 * - `conflict`: the author changed it and the new version differs: refused without --force, which
 *   takes the new file and keeps the author's beside as `<file>.orig`.
 * - `keep`: the new version dropped it, but the author changed it: it stays, untouched.
 */
export type FileAction = "update" | "add" | "remove" | "conflict" | "keep";

export interface PlannedFile {
  /** Runtime-folder-relative. */
  path: string;
  action: FileAction;
  /** The project's copy (undefined when it has none). */
  before?: Buffer;
  /** What the upgrade writes (undefined for remove and keep). */
  after?: Buffer;
}

/**
 * `project`: the runtime files the project has (only the paths of `base` and `current` are read);
 * `base`: the hashes of the version it carries; `current`: this toolchain's runtime files.
 * Files the author added to the runtime folder are in neither and never touched.
 */
export function planUpgrade(
  project: ReadonlyMap<string, Buffer>,
  base: RuntimeHashes,
  current: ReadonlyMap<string, Buffer>,
): PlannedFile[] {
  const paths = [...new Set([...Object.keys(base), ...current.keys()])].sort();
  const plan: PlannedFile[] = [];
  for (const path of paths) {
    const before = project.get(path);
    const after = current.get(path);
    const untouched = before !== undefined && base[path] !== undefined && runtimeHash(before) === base[path];
    if (after === undefined) {
      if (before !== undefined) plan.push({ path, action: untouched ? "remove" : "keep", before });
    } else if (before === undefined) {
      plan.push({ path, action: "add", after });
    } else if (runtimeHash(before) !== runtimeHash(after)) {
      plan.push({ path, action: untouched ? "update" : "conflict", before, after });
    }
  }
  return plan;
}

/** The version a project without a record carries: the known version most of its files match (the newest on a tie), if any. */
export function inferVersion(
  project: ReadonlyMap<string, Buffer>,
  versions: ReadonlyArray<readonly [number, RuntimeHashes]>,
): number | undefined {
  let best: { version: number; matches: number } | undefined;
  const hashes = new Map([...project].map(([path, content]) => [path, runtimeHash(content)]));
  for (const [version, known] of versions) {
    const matches = Object.entries(known).filter(([path, hash]) => hashes.get(path) === hash).length;
    if (matches > 0 && (!best || matches >= best.matches)) best = { version, matches };
  }
  return best?.version;
}
