/** Writing the generated files: only the ones whose content changed, each atomically, none through a link out of the project. */
import { lstat, readFile } from "node:fs/promises";
import { checkProjectPaths, projectPath, writeProjectFile } from "../project/index.js";

export interface Output {
  /** Project-relative, `/` separators. */
  path: string;
  content: string;
}

/** Writes the outputs under projectDir (every path checked before the first write); returns the project-relative paths that changed. */
export async function writeOutputs(projectDir: string, outputs: readonly Output[]): Promise<string[]> {
  checkProjectPaths(
    projectDir,
    outputs.map((o) => o.path),
  );
  const written: string[] = [];
  for (const output of outputs) {
    const path = projectPath(projectDir, output.path);
    const isLink = await lstat(path).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    // A link is replaced by the file even when it shows the same content: a generated file is never a link.
    if (!isLink && (await readFile(path, "utf8").catch(() => undefined)) === output.content) continue;
    writeProjectFile(projectDir, output.path, output.content);
    written.push(output.path);
  }
  return written;
}
