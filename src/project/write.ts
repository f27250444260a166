/**
 * Where a write into a project lands. A path is resolved through every link on its way, and a
 * link that leads out of the project is refused (naming the link and where it points) before
 * anything is written; the data then goes through common/atomic-write (an exclusive temporary
 * file and a rename, so a link at the target itself is replaced, never followed).
 */
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { writeFileAtomic } from "../common/atomic-write.js";
import { ExecutaError } from "../common/errors.js";

const LINK_HINT =
  "replace the link with a real folder or file (or remove it) and run the command again; nothing was written";

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** The real path a link leads to, also when it dangles (then its target resolved against the link's real folder). */
function linkTarget(link: string): string {
  try {
    return realpathSync(link);
  } catch {
    return resolve(realpathSync(dirname(link)), readlinkSync(link));
  }
}

/**
 * The absolute path of `rel` in the project at `root`, after checking that no link on the way
 * (the target itself included) leads out of the project. Throws an ExecutaError otherwise.
 */
export function projectPath(root: string, rel: string): string {
  const clean = normalize(rel);
  if (!rel || isAbsolute(rel) || clean === ".." || clean.startsWith(`..${sep}`)) {
    throw new ExecutaError(`${rel} is outside the project folder ${root}`, { hint: "write only inside the project" });
  }
  const target = join(root, clean);
  if (!existsSync(root)) return target;
  const realRoot = realpathSync(root);
  let current = root;
  for (const part of clean.split(sep).filter((p) => p && p !== ".")) {
    current = join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      break; // nothing there yet: it is created inside the folder already checked
    }
    if (!isLink) continue;
    const to = linkTarget(current);
    if (!inside(realRoot, to)) {
      const shown = relative(root, current) || current;
      throw new ExecutaError(
        `${shown} in ${root} is a link to ${readlinkSync(current)} (${to}), outside the project, and a write through it would land there`,
        { hint: LINK_HINT },
      );
    }
  }
  return target;
}

/** Checks every path of a write before the first file is written (see projectPath). */
export function checkProjectPaths(root: string, rels: Iterable<string>): void {
  for (const rel of rels) projectPath(root, rel);
}

/**
 * An output folder given for a project (build's `dist/`, `--out-dir`): when it lies inside the
 * project by name, no link on the way may lead out of it. A folder outside the project by name is
 * the author's own choice and is not checked.
 */
export function checkOutputFolder(root: string, folder: string): void {
  const rel = relative(resolve(root), resolve(folder));
  if (rel && inside(resolve(root), resolve(folder))) projectPath(resolve(root), rel);
}

/** Writes one project file atomically, after projectPath's check. */
export function writeProjectFile(root: string, rel: string, data: string | Uint8Array, mode = 0o644): void {
  writeFileAtomic(projectPath(root, rel), data, mode);
}
