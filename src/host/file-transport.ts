/** The host side of file transport: read the response from the file the pointer names, then delete it. */
import { readFile, unlink } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { FILE_TRANSPORT_KEY } from "../protocol/index.js";

export interface FileTransportRead {
  path: string;
  /** The response inside the file, when it could be read and parsed. */
  frame?: Record<string, unknown>;
  bytes?: number;
  error?: string;
  deleted: boolean;
}

export function isFileTransportPointer(frame: Record<string, unknown>): boolean {
  return typeof frame[FILE_TRANSPORT_KEY] === "string" && !("result" in frame) && !("error" in frame);
}

/** Reads and deletes the file, as the Agent does (the file is deleted even when it is not valid). */
export async function readFileTransport(path: string): Promise<FileTransportRead> {
  if (!isAbsolute(path)) return { path, error: "the path is not absolute", deleted: false };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { path, error: `cannot read it: ${(error as Error).message}`, deleted: false };
  }
  let deleted = true;
  try {
    await unlink(path);
  } catch {
    deleted = false;
  }
  try {
    const frame = JSON.parse(text.trim()) as unknown;
    if (!frame || typeof frame !== "object" || Array.isArray(frame)) return { path, bytes: text.length, error: "the file does not hold a JSON object", deleted };
    return { path, frame: frame as Record<string, unknown>, bytes: Buffer.byteLength(text), deleted };
  } catch (error) {
    return { path, bytes: text.length, error: `the file is not JSON: ${(error as Error).message}`, deleted };
  }
}
