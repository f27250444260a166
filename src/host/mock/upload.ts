/**
 * `host/uploadFile` (long reference §7.5): inline uploads up to 8 MiB, or negotiate (a presigned
 * PUT URL of the local server) then confirm. Every object is bound to the invoke that made it,
 * and its download URL is served by the local server.
 */
import { INLINE_UPLOAD_MAX_BYTES, UploadError } from "../../protocol/index.js";
import { QuotaExceeded, type BlobStore } from "./blobs.js";
import { iso, ruleAnswer, type Call, type HostEnv } from "./call.js";
import { refuse, type Params } from "./params.js";
import type { Answer } from "./types.js";
import { remember } from "./bounded.js";

export const UPLOAD_LIMITS = {
  inlineBytes: INLINE_UPLOAD_MAX_BYTES,
  fileBytes: 100 * 1024 * 1024,
  ttlS: 3600,
  purposes: ["image_input", "image_reference", "user_artifact"],
} as const;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface Upload {
  invokeId: string;
  mimeType: string;
  /** The negotiated size (negotiate), or the inline size. */
  sizeBytes: number;
  blobId?: string;
  size?: number;
  expiresAt: number;
}

function filenameOf(p: Params): string {
  const name = p.requiredString("filename", { max: 255 });
  if (/[/\\\u0000-\u001f\u007f]/.test(name) || name === "." || name === "..")
    throw p.bad(`filename ${JSON.stringify(name)} must be a plain file name (no /, \\ or control characters)`);
  return name;
}

function mimeOf(p: Params): string {
  const mime = p.requiredString("mime_type", { max: 255 });
  if (!MIME.test(mime))
    throw refuse(
      UploadError.MIME_REJECTED,
      `MIME_REJECTED: mime_type ${JSON.stringify(mime)} is not a MIME type such as "image/png"`,
    );
  return mime;
}

function purposeOf(p: Params): void {
  const purpose = p.string("purpose");
  if (purpose !== undefined && !(UPLOAD_LIMITS.purposes as readonly string[]).includes(purpose)) {
    throw refuse(
      UploadError.PURPOSE_REJECTED,
      `PURPOSE_REJECTED: purpose '${purpose}' not in protocol whitelist (${UPLOAD_LIMITS.purposes.join(", ")})`,
    );
  }
  p.object("metadata");
}

export class UploadService {
  private readonly uploads = new Map<string, Upload>();
  private readonly drop = (upload: Upload) => {
    if (upload.blobId) this.blobs.delete(upload.blobId);
  };

  constructor(
    private readonly env: HostEnv,
    private readonly blobs: BlobStore,
  ) {}

  handle(call: Call): Promise<Answer> | Answer {
    const mode = call.p.oneOf("mode", ["inline", "negotiate", "confirm"] as const, "inline");
    if (mode === "inline") return this.inline(call);
    if (mode === "negotiate") return this.negotiate(call);
    return this.confirm(call);
  }

  /** `exec-uploads/<env>/<user>/<tool id>/<invoke>/<kind>/<filename>`, as Anna names an upload. */
  private r2Key(call: Call, mime: string, filename: string): string {
    return `exec-uploads/dev/mock-user/${call.toolId}/${call.invokeId}/${mime.split("/")[0]}/${filename}`;
  }

  private store(bytes: Buffer): string {
    try {
      return this.blobs.put(bytes).id;
    } catch (error) {
      if (error instanceof QuotaExceeded) throw refuse(UploadError.QUOTA_EXCEEDED, `QUOTA_EXCEEDED: ${error.message}`);
      throw error;
    }
  }

  private async downloadUrl(upload: Upload): Promise<string> {
    const blobId = upload.blobId!;
    return this.env.server.getUrl({
      expiresAt: upload.expiresAt,
      contentType: upload.mimeType,
      read: () => this.blobs.get(blobId),
    });
  }

  private async inline(call: Call): Promise<Answer> {
    const { p } = call;
    const filename = filenameOf(p);
    const mime = mimeOf(p);
    const b64 = p.requiredString("content_b64");
    purposeOf(p);
    const clean = b64.replace(/\s+/g, "");
    if (clean.length % 4 === 1 || !BASE64.test(clean)) throw p.bad("content_b64 is not valid base64");
    const size = Math.floor((clean.length * 3) / 4) - (clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0);
    if (size > UPLOAD_LIMITS.inlineBytes) {
      throw refuse(
        UploadError.TOO_LARGE,
        `TOO_LARGE: ${size} bytes is over the ${UPLOAD_LIMITS.inlineBytes}-byte (8 MiB) inline cap; use mode "negotiate" and PUT the bytes`,
      );
    }
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    const bytes = Buffer.from(clean, "base64");
    const key = this.r2Key(call, mime, filename);
    const old = this.uploads.get(key);
    if (old?.blobId) this.blobs.delete(old.blobId);
    const upload: Upload = {
      invokeId: call.invokeId,
      mimeType: mime,
      sizeBytes: bytes.length,
      size: bytes.length,
      blobId: this.store(bytes),
      expiresAt: this.env.clock() + UPLOAD_LIMITS.ttlS * 1000,
    };
    remember(this.uploads, key, upload, undefined, this.drop);
    return {
      result: {
        download_url: await this.downloadUrl(upload),
        r2_key: key,
        expires_at: iso(upload.expiresAt),
        size_bytes: bytes.length,
      },
    };
  }

  private async negotiate(call: Call): Promise<Answer> {
    const { p } = call;
    const filename = filenameOf(p);
    const mime = mimeOf(p);
    const sizeBytes = p.integer("size_bytes", { min: 1 });
    if (sizeBytes === undefined) throw p.bad("size_bytes is required for negotiate (the exact size you will PUT)");
    if (sizeBytes > UPLOAD_LIMITS.fileBytes)
      throw refuse(
        UploadError.TOO_LARGE,
        `TOO_LARGE: ${sizeBytes} bytes is over the host's ${UPLOAD_LIMITS.fileBytes}-byte limit per file`,
      );
    purposeOf(p);
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    const key = this.r2Key(call, mime, filename);
    const expiresAt = this.env.clock() + UPLOAD_LIMITS.ttlS * 1000;
    const upload: Upload = { invokeId: call.invokeId, mimeType: mime, sizeBytes, expiresAt };
    const putUrl = await this.env.server.putUrl({
      expiresAt,
      maxBytes: sizeBytes,
      contentType: mime,
      accept: (bytes) => {
        const blob = this.blobs.put(bytes);
        if (upload.blobId) this.blobs.delete(upload.blobId);
        upload.blobId = blob.id;
        upload.size = blob.size;
        return blob.etag;
      },
    });
    const old = this.uploads.get(key);
    if (old?.blobId) this.blobs.delete(old.blobId);
    remember(this.uploads, key, upload, undefined, this.drop);
    return { result: { put_url: putUrl, headers: { "Content-Type": mime }, r2_key: key, expires_at: iso(expiresAt) } };
  }

  private async confirm(call: Call): Promise<Answer> {
    const { p } = call;
    const key = p.requiredString("r2_key", { max: 2048 });
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    const upload = this.uploads.get(key);
    if (!upload)
      throw refuse(
        UploadError.NOT_FOUND,
        `NOT_FOUND: no upload with r2_key ${JSON.stringify(key)} (negotiate first, and pass the r2_key it returned)`,
      );
    if (upload.invokeId !== call.invokeId)
      throw refuse(UploadError.INVALID_REQUEST, "r2_key does not belong to this invoke");
    if (!upload.blobId) throw refuse(UploadError.NOT_FOUND, `NOT_FOUND: nothing was PUT to the put_url of ${key} yet`);
    if (upload.size !== upload.sizeBytes)
      throw p.bad(`the PUT sent ${upload.size} bytes, but negotiate announced size_bytes ${upload.sizeBytes}`);
    return {
      result: {
        download_url: await this.downloadUrl(upload),
        r2_key: key,
        size_bytes: upload.size,
        expires_at: iso(upload.expiresAt),
      },
    };
  }
}
