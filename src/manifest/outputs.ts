/** Writing the generated files: only the ones whose content changed, each atomically. */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";

/** The describe result's file, in the project root. */
export const MANIFEST_PATH = "manifest.json";

export interface Output {
  /** Project-relative, `/` separators. */
  path: string;
  content: string;
}

/** Writes the outputs under projectDir; returns the project-relative paths that changed. */
export async function writeOutputs(projectDir: string, outputs: readonly Output[]): Promise<string[]> {
  const written: string[] = [];
  for (const output of outputs) {
    const target = isAbsolute(output.path) ? output.path : join(projectDir, output.path);
    const current = await readFile(target, "utf8").catch(() => undefined);
    if (current === output.content) continue;
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, output.content, "utf8");
    await rename(temp, target);
    written.push(output.path);
  }
  return written;
}
