/**
 * The host side of file transport, for an untrusted plugin: the file a pointer names is read and
 * deleted only when it is a regular file (not a symlink, FIFO, device, directory or hard link),
 * directly inside the temp folder the plugin was started with, owned by this user, named
 * `executa-*` and at most 64 MiB. Anything else is refused with the broken rule, and the file is
 * left alone: never opened, never deleted. (Which ids a pointer may answer is the session's rule.)
 */
import { constants, type Stats } from "node:fs";
import { lstat, open, unlink } from "node:fs/promises";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { FILE_TRANSPORT_KEY } from "../protocol/index.js";

export const FILE_TRANSPORT_MAX_BYTES = 64 * 1024 * 1024;
/** The spec's `executa-resp-*`, the Python SDK's `executa-msg-*`. */
export const FILE_TRANSPORT_PREFIX = "executa-";

export interface FileTransportRead {
  path: string;
  /** The response inside the file, when it could be read and parsed. */
  frame?: Record<string, unknown>;
  bytes?: number;
  error?: string;
  deleted: boolean;
  /** The pointer broke a safety rule (`error` says which); the file was not touched. */
  refused?: boolean;
}

/** The temp folder the plugin was started with; `identity` is set when the host created it. */
export interface TransportFolder {
  path: string;
  identity?: { dev: number; ino: number };
}

export function isFileTransportPointer(frame: Record<string, unknown>): boolean {
  return typeof frame[FILE_TRANSPORT_KEY] === "string" && !("result" in frame) && !("error" in frame);
}

const sameFile = (a: Pick<Stats, "dev" | "ino">, b: Pick<Stats, "dev" | "ino">) => a.dev === b.dev && a.ino === b.ino;

function kindOf(s: Stats): string {
  if (s.isSymbolicLink()) return "a symbolic link";
  if (s.isFIFO()) return "a FIFO";
  if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
  if (s.isDirectory()) return "a directory";
  if (s.isSocket()) return "a socket";
  return "not a regular file";
}

/** Why `s` may not be read as a response file, or undefined when it may. */
function statProblem(s: Stats): string | undefined {
  if (!s.isFile()) return `it is ${kindOf(s)}`;
  const uid = process.getuid?.();
  if (uid !== undefined && s.uid !== uid)
    return `it belongs to user ${s.uid}, not to the user running the host (${uid})`;
  if (s.nlink > 1) return "it is a hard link (it has other names)";
  if (s.size > FILE_TRANSPORT_MAX_BYTES) return `it holds ${s.size} bytes, over the 64 MiB limit`;
  return undefined;
}

/** Why the pointer's path may not be followed, checking only the path and the folder. */
async function pathProblem(path: string, folder: TransportFolder): Promise<string | undefined> {
  if (!isAbsolute(path)) return "the path is not absolute";
  if (path.includes("\0")) return "the path contains a NUL byte";
  if (resolve(path) !== path) return "the path is not in normal form (it has '.', '..' or repeated separators)";
  if (dirname(path) !== folder.path) return `it is not directly inside the plugin's temp folder ${folder.path}`;
  if (!basename(path).startsWith(FILE_TRANSPORT_PREFIX)) return `its name does not start with ${FILE_TRANSPORT_PREFIX}`;
  if (folder.identity) {
    const dir = await lstat(folder.path).catch(() => undefined);
    if (!dir?.isDirectory() || !sameFile(dir, folder.identity)) return `the temp folder ${folder.path} was replaced`;
  }
  return undefined;
}

const refuse = (path: string, why: string): FileTransportRead => ({
  path,
  error: `refused: ${why}; the file was left alone`,
  deleted: false,
  refused: true,
});

/** Reads the response the pointer names, as the Agent does, and deletes the file, if every rule holds. */
export async function readFileTransport(path: string, folder: TransportFolder): Promise<FileTransportRead> {
  const badPath = await pathProblem(path, folder);
  if (badPath) return refuse(path, badPath);
  let before: Stats;
  try {
    before = await lstat(path);
  } catch (error) {
    return {
      path,
      error: `cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      deleted: false,
    };
  }
  const badFile = statProblem(before);
  if (badFile) return refuse(path, badFile);
  // O_NOFOLLOW and O_NONBLOCK: a name swapped for a symlink or a FIFO since the lstat is not followed and cannot block.
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let text: string;
  try {
    const handle = await open(path, flags);
    try {
      const now = await handle.stat();
      const changed = sameFile(now, before) ? statProblem(now) : "it was replaced while the host read it";
      if (changed) return refuse(path, changed);
      const buffer = Buffer.alloc(Math.min(now.size, FILE_TRANSPORT_MAX_BYTES) + 1);
      let filled = 0;
      for (
        let n;
        filled < buffer.length &&
        (n = (await handle.read(buffer, filled, buffer.length - filled, filled)).bytesRead) > 0;
      )
        filled += n;
      if (filled > FILE_TRANSPORT_MAX_BYTES)
        return refuse(path, "it grew past the 64 MiB limit while the host read it");
      text = buffer.subarray(0, filled).toString("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return refuse(path, "it is a symbolic link");
    return { path, error: `cannot read it: ${code ?? (error as Error).message}`, deleted: false };
  }
  let deleted = true;
  try {
    await unlink(path);
  } catch {
    deleted = false;
  }
  const bytes = Buffer.byteLength(text);
  try {
    const frame = JSON.parse(text.trim()) as unknown;
    if (!frame || typeof frame !== "object" || Array.isArray(frame))
      return { path, bytes, error: "the file does not hold a JSON object", deleted };
    return { path, frame: frame as Record<string, unknown>, bytes, deleted };
  } catch (error) {
    return { path, bytes, error: `the file is not JSON: ${(error as Error).message}`, deleted };
  }
}
