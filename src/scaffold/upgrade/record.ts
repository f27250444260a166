/**
 * The record a generated project keeps of the runtime it carries: `<runtime folder>/runtime.lock.json`,
 * `{version, files: {path: sha256}}`, written by the scaffold, so that the files the author left alone
 * can be told from the ones they changed.
 */
import { createHash } from "node:crypto";

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
