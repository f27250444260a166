/**
 * The object store behind `files/*`: per scope, a path -> object index over the blob store, in
 * memory or in `files.json` of the mock host's folder. A path is only a key in the index, never
 * a place on disk. Browsable and editable from outside (the web workbench's storage panel).
 */
import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomic } from "../../common/atomic-write.js";
import type { BlobStore } from "./blobs.js";
import type { Scope } from "./kv.js";

export interface FileEntry {
  blobId: string;
  size: number;
  contentType: string;
  etag: string;
  updatedAt: number;
  metadata?: Record<string, unknown>;
}

export interface FileItem extends FileEntry {
  scope: Scope;
  path: string;
}

/** Why a path is refused (files/* answer INVALID_PATH), or undefined when it is fine. */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return "the path is empty";
  if (path.length > 1024) return "the path is longer than 1024 characters";
  if (path.startsWith("/")) return "the path must be relative (no leading /)";
  if (path.endsWith("/")) return "the path names a folder (it ends with /)";
  if (path.includes("\\")) return "the path contains a backslash; use / between folders";
  if (/[\u0000-\u001f\u007f]/.test(path)) return "the path contains a control character";
  if (path.split("/").some((s) => s === "" || s === "." || s === "..")) return "the path has an empty, . or .. segment";
  return undefined;
}

export class FileStore {
  private readonly index = new Map<string, FileEntry>();

  constructor(
    private readonly file: string | undefined,
    private readonly blobs: BlobStore,
  ) {
    if (!file || !existsSync(file)) return;
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, FileEntry>;
    for (const [k, v] of Object.entries(saved))
      if (v && typeof v.blobId === "string" && blobs.has(v.blobId)) this.index.set(k, v);
  }

  get(scope: Scope, path: string): FileEntry | undefined {
    return this.index.get(`${scope}:${path}`);
  }

  read(scope: Scope, path: string): Buffer | undefined {
    const e = this.get(scope, path);
    return e && this.blobs.get(e.blobId);
  }

  /** Makes `entry` the object at path (its blob already stored), dropping the old bytes. */
  commit(scope: Scope, path: string, entry: FileEntry): void {
    const old = this.get(scope, path);
    this.index.set(`${scope}:${path}`, entry);
    if (old && old.blobId !== entry.blobId) this.blobs.delete(old.blobId);
    this.save();
  }

  /** Writes bytes at a path directly (for the storage panel). Throws QuotaExceeded. */
  write(scope: Scope, path: string, bytes: Buffer, contentType: string, now: number): FileEntry {
    const problem = pathProblem(path);
    if (problem) throw new Error(`${problem}: ${JSON.stringify(path)}`);
    const blob = this.blobs.put(bytes);
    const entry: FileEntry = { blobId: blob.id, size: blob.size, contentType, etag: blob.etag, updatedAt: now };
    this.commit(scope, path, entry);
    return entry;
  }

  delete(scope: Scope, path: string): boolean {
    const old = this.get(scope, path);
    if (!old) return false;
    this.index.delete(`${scope}:${path}`);
    this.blobs.delete(old.blobId);
    this.save();
    return true;
  }

  /** Objects of a scope (every scope when omitted) under a prefix, sorted by path. */
  list(scope?: Scope, prefix = ""): FileItem[] {
    const out: FileItem[] = [];
    for (const [k, e] of this.index) {
      const colon = k.indexOf(":");
      const s = k.slice(0, colon) as Scope;
      const path = k.slice(colon + 1);
      if ((!scope || s === scope) && path.startsWith(prefix)) out.push({ ...e, scope: s, path });
    }
    return out.sort((a, b) =>
      a.scope === b.scope ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.scope < b.scope ? -1 : 1,
    );
  }

  private save(): void {
    if (!this.file) return;
    writeFileAtomic(this.file, JSON.stringify(Object.fromEntries(this.index)), 0o600);
  }
}
