/**
 * `storage/*` (long reference §7.3): get, set with `if_match` and `ttl_seconds`, delete with
 * `if_match`, list (key-value items and, with `kind`, files) in the user, app and tool scopes.
 */
import { StorageError } from "../../protocol/index.js";
import { iso, ruleAnswer, type Call } from "./call.js";
import type { FileStore } from "./file-store.js";
import type { KvStore } from "./kv.js";
import { page, scopeOf } from "./pages.js";
import { refuse, type Params } from "./params.js";
import type { Answer } from "./types.js";

export const STORAGE_LIMITS = {
  valueBytes: 64 * 1024,
  keyChars: 1024,
  totalBytes: 64 * 1024 * 1024,
  keys: 100_000,
} as const;

function keyOf(p: Params): string {
  const key = p.requiredString("key", { max: STORAGE_LIMITS.keyChars });
  if (/[\u0000-\u001f\u007f]/.test(key)) throw p.bad("key contains a control character");
  return key;
}

function ifMatchOf(p: Params): string | undefined {
  return p.string("if_match", { nonEmpty: true });
}

export class StorageService {
  constructor(
    private readonly kv: KvStore,
    private readonly files: FileStore,
  ) {}

  handle(call: Call): Answer {
    const { p } = call;
    const scope = scopeOf(p);
    const ruled = () => {
      const rule = call.rule();
      return rule && ruleAnswer(rule);
    };
    switch (call.method) {
      case "storage/get": {
        const key = keyOf(p);
        const found = this.kv.get(scope, key);
        return (
          ruled() ?? {
            result: found ? { value: found.value, etag: found.etag, exists: true } : { value: null, exists: false },
          }
        );
      }
      case "storage/set": {
        const key = keyOf(p);
        if (!Object.hasOwn(p.raw, "value"))
          throw p.bad("value is required (any JSON; use storage/delete to remove a key)");
        const ifMatch = ifMatchOf(p);
        const ttl = p.integer("ttl_seconds", { min: 1 });
        const size = Buffer.byteLength(JSON.stringify(p.raw.value ?? null));
        if (size > STORAGE_LIMITS.valueBytes) {
          throw refuse(
            StorageError.VALUE_TOO_LARGE,
            `VALUE_TOO_LARGE: the value is ${size} bytes serialised; a key holds at most ${STORAGE_LIMITS.valueBytes} (64 KB). Keep big data in files/*`,
            { errorCode: "value_too_large" },
          );
        }
        this.checkIfMatch(scope, key, ifMatch);
        const before = this.kv.get(scope, key)?.size ?? 0;
        if (
          this.kv.bytes() - before + size > STORAGE_LIMITS.totalBytes ||
          !this.kv.hasRoom(scope, key, STORAGE_LIMITS.keys)
        ) {
          throw refuse(
            StorageError.QUOTA_EXCEEDED,
            `QUOTA_EXCEEDED: the mock host keeps at most ${STORAGE_LIMITS.keys} keys and ${STORAGE_LIMITS.totalBytes} bytes of key-value data`,
            { errorCode: "quota_exceeded" },
          );
        }
        const r = ruled();
        if (r) return r;
        const e = this.kv.set(scope, key, p.raw.value, ttl);
        return {
          result: {
            etag: e.etag,
            generation: e.generation,
            size_bytes: e.size,
            ...(e.expiresAt !== undefined && { expires_at: iso(e.expiresAt) }),
          },
        };
      }
      case "storage/delete": {
        const key = keyOf(p);
        this.checkIfMatch(scope, key, ifMatchOf(p));
        const r = ruled();
        if (r) return r;
        this.kv.delete(scope, key);
        return { result: { deleted: true } };
      }
      default: {
        const prefix = p.string("prefix") ?? "";
        const kind = p.string("kind");
        if (kind !== undefined && kind !== "kv" && kind !== "file")
          throw p.bad(`kind must be "kv" or "file", got ${JSON.stringify(kind)}`);
        const items = [
          ...(kind === "file"
            ? []
            : this.kv.list(scope, prefix).map((e) => ({
                key: e.key,
                kind: "kv",
                etag: e.etag,
                size_bytes: e.size,
                updated_at: iso(e.updatedAt),
                ...(e.expiresAt !== undefined && { expires_at: iso(e.expiresAt) }),
              }))),
          ...(kind === "kv"
            ? []
            : this.files.list(scope, prefix).map((f) => ({
                key: f.path,
                kind: "file",
                path: f.path,
                etag: f.etag,
                size_bytes: f.size,
                content_type: f.contentType,
                updated_at: iso(f.updatedAt),
              }))),
        ].sort((a, b) => (a.key === b.key ? (a.kind < b.kind ? -1 : 1) : a.key < b.key ? -1 : 1));
        const listed = page(p, items, (i) => `${i.key}\0${i.kind}`);
        return ruled() ?? { result: listed };
      }
    }
  }

  private checkIfMatch(scope: Parameters<KvStore["get"]>[0], key: string, ifMatch: string | undefined): void {
    if (ifMatch === undefined) return;
    const current = this.kv.get(scope, key);
    if (current?.etag !== ifMatch) {
      throw refuse(
        StorageError.PRECONDITION_FAILED,
        `PRECONDITION_FAILED: if_match ${JSON.stringify(ifMatch)} ${current ? `is not the current etag of ${JSON.stringify(key)} (${current.etag}): someone wrote it since you read it; get it again and retry` : `was given, but ${JSON.stringify(key)} does not exist in scope ${scope}`}`,
        { errorCode: "precondition_failed", ...(current && { current_etag: current.etag }) },
      );
    }
  }
}
