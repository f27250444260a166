/** `--check`: compare the committed files with freshly generated ones, writing nothing. */
import { readFile } from "node:fs/promises";
import { MANIFEST_PATH, projectPath } from "../project/index.js";
import { hasErrors, type Diagnostic } from "../protocol/index.js";
import { manifestChanges, type Change } from "./changes.js";
import { generateManifest, type GenerateOptions } from "./generate.js";
import type { Output } from "./outputs.js";
import { unifiedDiff } from "./unified-diff.js";

export type CheckStatus = "in-sync" | "drift" | "missing" | "non-canonical" | "error";

export interface CheckResult {
  /** `error`: the manifest could not be generated (see diagnostics). */
  status: CheckStatus;
  changes: Change[];
  /** Unified diff of every file that differs (committed -> generated). */
  diff: string;
  diagnostics: Diagnostic[];
  /** The files that are missing or differ, project-relative. */
  files: string[];
}

async function readOptional(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

/** Compares generated outputs (the first is manifest.json) with what is on disk. */
export async function compareOutputs(
  projectDir: string,
  outputs: readonly Output[],
  diagnostics: Diagnostic[],
): Promise<CheckResult> {
  const result: CheckResult = { status: "in-sync", changes: [], diff: "", diagnostics, files: [] };
  if (hasErrors(diagnostics)) return { ...result, status: "error" };
  let missing = false;
  let drift = false;
  let formatting = false;
  for (const output of outputs) {
    const current = await readOptional(projectPath(projectDir, output.path));
    if (current === output.content) continue;
    result.files.push(output.path);
    result.diff += unifiedDiff(current ?? "", output.content, output.path);
    if (current === undefined) {
      missing = true;
      continue;
    }
    if (output.path === MANIFEST_PATH) {
      let committed: unknown;
      try {
        committed = JSON.parse(current);
      } catch (error) {
        drift = true;
        result.changes.push({
          kind: "unreadable",
          message: `${output.path} is not valid JSON: ${(error as Error).message}`,
        });
        continue;
      }
      const changes = manifestChanges(committed, JSON.parse(output.content));
      if (changes.length === 0) formatting = true;
      else drift = true;
      result.changes.push(...changes);
    } else {
      drift = true;
      result.changes.push({ kind: "bindings-changed", field: output.path, message: `${output.path} is out of date` });
    }
  }
  result.status = missing ? "missing" : drift ? "drift" : formatting ? "non-canonical" : "in-sync";
  return result;
}

export async function checkManifest(projectDir: string, options: GenerateOptions = {}): Promise<CheckResult> {
  const generated = await generateManifest(projectDir, options);
  return compareOutputs(projectDir, generated.outputs, generated.diagnostics);
}
