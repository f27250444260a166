/**
 * The record a generated project keeps of the runtime it carries: `<runtime folder>/runtime.lock.json`,
 * `{version, files: {path: sha256}}`, written by the scaffold and by `executa upgrade`, read by
 * `executa upgrade` to tell the files the author left alone from the ones they changed.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../../common/errors.js";

/** The record's file name, inside the runtime folder (it travels with the runtime). */
export const RECORD_FILE = "runtime.lock.json";

export interface RuntimeRecord {
  version: number;
  /** Runtime-folder-relative paths (`/` separators) -> sha256 of the content, line endings as LF. */
  files: Record<string, string>;
}

/**
 * sha256 of a runtime file with CRLF read as LF: a checkout that converted line endings (git's
 * autocrlf on Windows) is not an edit.
 */
export function runtimeHash(content: Buffer | string): string {
  const text = typeof content === "string" ? content : content.toString("utf8");
  return createHash("sha256").update(text.replaceAll("\r\n", "\n")).digest("hex");
}

export function recordOf(version: number, files: ReadonlyMap<string, Buffer | string>): RuntimeRecord {
  const sorted = [...files.keys()].sort();
  return { version, files: Object.fromEntries(sorted.map((path) => [path, runtimeHash(files.get(path)!)])) };
}

export function recordText(record: RuntimeRecord): string {
  const files = Object.fromEntries(Object.entries(record.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify({ version: record.version, files }, null, 2) + "\n";
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The record in `runtimeDir`, undefined when there is none; a malformed one is an error that says so. */
export function readRecord(runtimeDir: string, shownPath: string): RuntimeRecord | undefined {
  const path = join(runtimeDir, RECORD_FILE);
  if (!existsSync(path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ExecutaError(`${shownPath} is not valid JSON: ${(error as Error).message}`, { hint: "restore it from git (create-executa writes it; it is not meant to be edited)" });
  }
  const record = value as Partial<RuntimeRecord> | null;
  const files = record?.files;
  const valid = Number.isInteger(record?.version) && record!.version! > 0 && files !== null && typeof files === "object" && !Array.isArray(files) &&
    Object.entries(files).every(([p, h]) => typeof h === "string" && HEX64.test(h) && !p.startsWith("/") && !p.split("/").includes(".."));
  if (!valid) {
    throw new ExecutaError(`${shownPath} is not a runtime record: it needs {"version": <whole number>, "files": {"<path>": "<sha256>"}}`, {
      hint: "restore it from git (create-executa writes it; it is not meant to be edited)",
    });
  }
  return record as RuntimeRecord;
}
