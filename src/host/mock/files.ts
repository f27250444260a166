/**
 * `files/*` (long reference §7.4): upload_begin hands out a presigned PUT URL of the mock host's
 * local server, which takes the bytes and answers an ETag; upload_complete checks the object is
 * there (and its etag and size, when given) and makes it the file; download_url, list, delete.
 */
import { StorageError } from "../../protocol/index.js";
import type { BlobStore } from "./blobs.js";
import { iso, ruleAnswer, type Call, type HostEnv } from "./call.js";
import { pathProblem, type FileStore } from "./file-store.js";
import type { Scope } from "./kv.js";
import { page, scopeOf } from "./pages.js";
import { refuse, type Params } from "./params.js";
import type { Answer } from "./types.js";
import { remember } from "./bounded.js";

export const FILES_LIMITS = {
  objectMaxBytes: 100 * 1024 * 1024,
  putUrlTtlS: 15 * 60,
  downloadTtlS: 3600,
  maxDownloadTtlS: 7 * 24 * 3600,
} as const;
const MIME = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;

interface Staged {
  scope: Scope;
  path: string;
  contentType: string | undefined;
  sizeBytes: number | undefined;
  metadata: Record<string, unknown> | undefined;
  /** Set once the PUT arrived. */
  put?: { blobId: string; size: number; etag: string; contentType: string | undefined };
}

function pathOf(p: Params): string {
  const path = p.requiredString("path");
  const problem = pathProblem(path);
  if (problem)
    throw refuse(StorageError.INVALID_PATH, `INVALID_PATH: ${problem}: ${JSON.stringify(path.slice(0, 200))}`, {
      errorCode: "invalid_path",
    });
  return path;
}

const bare = (etag: string) => etag.replace(/^W\//, "").replace(/^"|"$/g, "");

export class FilesService {
  /** upload_id -> the upload waiting for its PUT and upload_complete. */
  private readonly staged = new Map<string, Staged>();

  constructor(
    private readonly env: HostEnv,
    private readonly files: FileStore,
    private readonly blobs: BlobStore,
  ) {}

  handle(call: Call): Promise<Answer> | Answer {
    switch (call.method) {
      case "files/upload_begin":
        return this.begin(call);
      case "files/upload_complete":
        return this.complete(call);
      case "files/download_url":
        return this.download(call);
      case "files/list": {
        const scope = scopeOf(call.p);
        const items = this.files.list(scope, call.p.string("prefix") ?? "").map((f) => ({
          path: f.path,
          size_bytes: f.size,
          content_type: f.contentType,
          etag: f.etag,
          updated_at: iso(f.updatedAt),
        }));
        const listed = page(call.p, items, (i) => i.path);
        const rule = call.rule();
        return rule ? ruleAnswer(rule) : { result: listed };
      }
      default: {
        const scope = scopeOf(call.p);
        const path = pathOf(call.p);
        const rule = call.rule();
        if (rule) return ruleAnswer(rule);
        this.files.delete(scope, path);
        return { result: { deleted: true } };
      }
    }
  }

  /** Drops uploads that were begun but never completed (their bytes included). */
  discardStaged(): void {
    for (const s of this.staged.values()) if (s.put) this.blobs.delete(s.put.blobId);
    this.staged.clear();
  }

  private async begin(call: Call): Promise<Answer> {
    const { p } = call;
    const scope = scopeOf(p);
    const path = pathOf(p);
    const sizeBytes = p.integer("size_bytes", { min: 0 });
    if (sizeBytes !== undefined && sizeBytes > FILES_LIMITS.objectMaxBytes) {
      throw refuse(
        StorageError.VALUE_TOO_LARGE,
        `VALUE_TOO_LARGE: size_bytes ${sizeBytes} is over the ${FILES_LIMITS.objectMaxBytes}-byte limit of one object`,
        { errorCode: "value_too_large" },
      );
    }
    const contentType = p.string("content_type", { nonEmpty: true });
    if (contentType !== undefined && !MIME.test(contentType))
      throw p.bad(`content_type ${JSON.stringify(contentType)} is not a MIME type such as "text/plain"`);
    const metadata = p.object("metadata");
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    const uploadId = `upl_${this.env.nextId("upload").slice(0, 24)}`;
    const staged: Staged = { scope, path, contentType, sizeBytes, metadata };
    const expiresAt = this.env.clock() + FILES_LIMITS.putUrlTtlS * 1000;
    const putUrl = await this.env.server.putUrl({
      expiresAt,
      maxBytes: sizeBytes ?? FILES_LIMITS.objectMaxBytes,
      ...(contentType !== undefined && { contentType }),
      accept: (bytes, type) => {
        if (!this.staged.has(uploadId)) throw new Error("this upload was already completed or discarded");
        const blob = this.blobs.put(bytes);
        if (staged.put) this.blobs.delete(staged.put.blobId);
        staged.put = { blobId: blob.id, size: blob.size, etag: blob.etag, contentType: type };
        return blob.etag;
      },
    });
    remember(this.staged, uploadId, staged, undefined, (old) => {
      if (old.put) this.blobs.delete(old.put.blobId);
    });
    return {
      result: {
        upload_id: uploadId,
        put_url: putUrl,
        headers: contentType !== undefined ? { "Content-Type": contentType } : {},
        expires_at: iso(expiresAt),
        path,
        scope,
      },
    };
  }

  private complete(call: Call): Answer {
    const { p } = call;
    const scope = scopeOf(p);
    const path = pathOf(p);
    const etag = p.string("etag", { nonEmpty: true });
    const sizeBytes = p.integer("size_bytes", { min: 0 });
    const contentType = p.string("content_type", { nonEmpty: true });
    const uploadId = p.string("upload_id");
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    // The upload for this path: the one named, else the latest begun that has its bytes.
    const candidates = [...this.staged.entries()].filter(
      ([id, s]) => s.scope === scope && s.path === path && (uploadId === undefined || id === uploadId),
    );
    const withBytes = candidates.filter(([, s]) => s.put).at(-1);
    if (!withBytes) {
      const why = candidates.length
        ? "upload_begin was called but nothing was PUT to its put_url yet"
        : "no upload was begun for it (call files/upload_begin, PUT the bytes, then upload_complete)";
      throw refuse(
        StorageError.NOT_FOUND,
        `NOT_FOUND: no object at ${JSON.stringify(path)} in scope ${scope}: ${why}`,
        { errorCode: "not_found" },
      );
    }
    const [id, staged] = withBytes;
    const put = staged.put!;
    if (etag !== undefined && bare(etag) !== bare(put.etag)) {
      throw refuse(
        StorageError.PRECONDITION_FAILED,
        `PRECONDITION_FAILED: etag ${JSON.stringify(etag)} is not the ETag the PUT answered (${put.etag})`,
        { errorCode: "precondition_failed" },
      );
    }
    const expected = sizeBytes ?? staged.sizeBytes;
    if (expected !== undefined && expected !== put.size)
      throw p.bad(`size_bytes ${expected} does not match the ${put.size} bytes that were PUT`);
    this.staged.delete(id);
    const now = this.env.clock();
    const type = contentType ?? staged.contentType ?? put.contentType ?? "application/octet-stream";
    this.files.commit(scope, path, {
      blobId: put.blobId,
      size: put.size,
      contentType: type,
      etag: put.etag,
      updatedAt: now,
      ...(staged.metadata && { metadata: staged.metadata }),
    });
    return {
      result: { ok: true, path, scope, size_bytes: put.size, content_type: type, etag: put.etag, updated_at: iso(now) },
    };
  }

  private async download(call: Call): Promise<Answer> {
    const { p } = call;
    const scope = scopeOf(p);
    const path = pathOf(p);
    const ttl =
      p.integer("expires_in", { min: 1, max: FILES_LIMITS.maxDownloadTtlS }) ??
      p.integer("ttl_seconds", { min: 1, max: FILES_LIMITS.maxDownloadTtlS }) ??
      FILES_LIMITS.downloadTtlS;
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    const entry = this.files.get(scope, path);
    if (!entry)
      throw refuse(StorageError.NOT_FOUND, `NOT_FOUND: no file at ${JSON.stringify(path)} in scope ${scope}`, {
        errorCode: "not_found",
      });
    const expiresAt = this.env.clock() + ttl * 1000;
    // Like a presigned GET, the URL names the path: it serves what is there when it is fetched.
    const url = await this.env.server.getUrl({
      expiresAt,
      contentType: entry.contentType,
      read: () => this.files.read(scope, path),
    });
    return { result: { url, get_url: url, expires_at: iso(expiresAt) } };
  }
}
