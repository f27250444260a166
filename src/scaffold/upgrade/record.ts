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

const SHA256 = /^[0-9a-f]{64}$/;
/** A file name of the runtime folder: no folders above it, no absolute path, no backslash. */
const RUNTIME_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/** A record read from a project (untrusted): its shape checked, or a message that says what is wrong. */
export function parseRecord(text: string): RuntimeRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `is not JSON (${(error as Error).message})`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "is not a JSON object";
  const { version, files } = value as { version?: unknown; files?: unknown };
  if (!Number.isSafeInteger(version) || (version as number) < 1)
    return `has no version (a whole number from 1), found ${JSON.stringify(version)}`;
  if (typeof files !== "object" || files === null || Array.isArray(files))
    return "has no files object ({path: sha256})";
  for (const [path, hash] of Object.entries(files)) {
    if (!RUNTIME_PATH.test(path)) return `names ${JSON.stringify(path)}, which is not a file of the runtime folder`;
    if (typeof hash !== "string" || !SHA256.test(hash))
      return `gives ${JSON.stringify(path)} a hash that is not a sha256 in hex`;
  }
  return { version: version as number, files: files as Record<string, string> };
}
