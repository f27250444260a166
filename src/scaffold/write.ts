/**
 * Writes rendered files into the target folder without ever overwriting a file, and without
 * leaving half a project behind: on any failure (or Ctrl-C) everything this write created is removed.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { checkProjectPaths } from "../project/index.js";
import type { RenderedFile } from "./render.js";

/**
 * Refuses a target that would lose or mix files: non-empty without --force, or any path the whole
 * pipeline writes (template files, generated files, install output) already taken.
 */
export async function checkTarget(targetDir: string, paths: readonly string[], force: boolean): Promise<void> {
  if (!existsSync(targetDir)) return;
  const entries = await readdir(targetDir).catch((error: NodeJS.ErrnoException) => {
    throw new ExecutaError(`${targetDir} exists and is not a folder I can read (${error.code})`, {
      hint: "choose another target folder",
    });
  });
  if (entries.length === 0) return;
  if (!force) {
    throw new ExecutaError(`target folder ${targetDir} is not empty`, {
      hint: "choose a new or empty folder, or pass --force to add the project to it (existing files are never overwritten)",
    });
  }
  const taken = paths.filter((p) => existsSync(join(targetDir, p)));
  if (taken.length > 0) {
    throw new ExecutaError(
      `--force never overwrites, and ${taken.length} file(s) of the project already exist in ${targetDir}: ${taken.join(", ")}`,
      { hint: "move or delete those files first, or choose another folder; nothing was written" },
    );
  }
}

/** What a write created, newest last: to take it back (`add tool` does when the manifest then fails). */
export interface Created {
  files: string[];
  dirs: string[];
}

export async function removeCreated(created: Created): Promise<void> {
  for (const file of [...created.files].reverse()) await rm(file, { force: true });
  for (const dir of [...created.dirs].reverse()) await rm(dir, { recursive: true, force: true });
}

/** Writes `files` as new files under targetDir; a path through a link out of the folder is refused before the first write. */
export async function writeProject(targetDir: string, files: readonly RenderedFile[]): Promise<Created> {
  const root = resolve(targetDir);
  checkProjectPaths(
    root,
    files.map((f) => f.path),
  );
  const createdDirs: string[] = [];
  const createdFiles: string[] = [];
  const ensureDir = async (dir: string) => {
    if (existsSync(dir)) return;
    await ensureDir(dirname(dir));
    await mkdir(dir);
    createdDirs.push(dir);
  };
  const rollback = () => removeCreated({ files: createdFiles, dirs: createdDirs });
  const onSignal = () => {
    void rollback().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  try {
    await ensureDir(root);
    for (const file of files) {
      const path = join(root, file.path);
      await ensureDir(dirname(path));
      await writeFile(path, file.content, { flag: "wx" });
      createdFiles.push(path);
      await chmod(path, file.mode);
    }
  } catch (error) {
    await rollback();
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExecutaError(
      `could not write the project into ${root}${code ? ` (${code})` : ""}: ${(error as Error).message}`,
      {
        hint: "nothing was left behind; check the folder's permissions and free space, then run again",
        cause: error,
      },
    );
  } finally {
    process.removeListener("SIGINT", onSignal);
  }
  return { files: createdFiles, dirs: createdDirs };
}
