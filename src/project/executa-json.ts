/** executa.json: the one reader and the one writer (a structural JSON edit, written atomically). */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { EXECUTA_TYPES, type ExecutaType } from "./entry.js";
import { parseJsonObject, readText, type JsonObject } from "./files.js";
import { writeProjectFile } from "./write.js";

/** The project file, in the project root. */
export const EXECUTA_JSON = "executa.json";

/** executa.json as read: Anna's fields and ours; `type` checked, every other field as the file has it. */
export interface ExecutaJson extends JsonObject {
  type?: ExecutaType;
}

/** The project's executa.json and its text (for locating a field in a diagnostic); undefined when it has none. */
export function readExecutaJsonFile(dir: string): { json: ExecutaJson; text: string } | undefined {
  const path = join(dir, EXECUTA_JSON);
  if (!existsSync(path)) return undefined;
  const text = readText(path);
  const json = parseJsonObject(text, path);
  if (json.type !== undefined && !EXECUTA_TYPES.includes(json.type as ExecutaType)) {
    throw new ExecutaError(`executa.json: unknown type ${JSON.stringify(json.type)}`, {
      hint: 'use "node", "python", "go" or "binary"',
    });
  }
  return { json: json as ExecutaJson, text };
}

/** The project's executa.json, or undefined when it has none; an unknown `type` is an error. */
export function readExecutaJson(dir: string): ExecutaJson | undefined {
  return readExecutaJsonFile(dir)?.json;
}

/** The indentation the file uses (two spaces when it has none). */
function indentOf(text: string): string {
  return /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
}

/**
 * Changes executa.json as data and writes it back atomically, in the file's own indentation and
 * key order (`edit` returns the new object; keys it keeps stay where they were). The file must exist.
 */
export function updateExecutaJson(dir: string, edit: (json: ExecutaJson) => JsonObject): JsonObject {
  const path = join(dir, EXECUTA_JSON);
  if (!existsSync(path))
    throw new ExecutaError(`${dir} has no executa.json to update`, {
      hint: "create it first (executa init, or create-executa)",
    });
  const { json, text } = readExecutaJsonFile(dir)!;
  const updated = edit(json);
  writeProjectFile(dir, EXECUTA_JSON, JSON.stringify(updated, null, indentOf(text)) + "\n");
  return updated;
}
