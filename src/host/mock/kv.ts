/**
 * The key-value store behind `storage/*`: three scopes, ETags that change with every write,
 * generations that keep counting across deletes (an old ETag never matches a new value), and
 * expiry. In memory, or in `kv.json` of the mock host's folder. Browsable from outside (the web
 * workbench's storage panel) through the same methods.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

export const SCOPES = ["user", "app", "tool"] as const;
export type Scope = (typeof SCOPES)[number];

export interface KvEntry {
  value: unknown;
  etag: string;
  generation: number;
  size: number;
  updatedAt: number;
  expiresAt?: number;
  /** A tombstone keeps the generation of a deleted key. */
  deleted?: boolean;
}

export interface KvItem extends KvEntry {
  scope: Scope;
  key: string;
}

export class KvStore {
  private readonly entries = new Map<string, KvEntry>();

  constructor(private readonly file: string | undefined, private readonly clock: () => number) {
    if (!file || !existsSync(file)) return;
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, Partial<KvEntry>>;
    for (const [k, v] of Object.entries(saved)) {
      if (!v || typeof v.etag !== "string" || typeof v.generation !== "number") continue;
      const text = JSON.stringify(v.value ?? null);
      this.entries.set(k, { size: Buffer.byteLength(text), updatedAt: 0, ...v, value: v.value ?? null } as KvEntry);
    }
  }

  private live(scope: Scope, key: string): KvEntry | undefined {
    const e = this.entries.get(`${scope}:${key}`);
    if (!e || e.deleted) return undefined;
    if (e.expiresAt !== undefined && this.clock() >= e.expiresAt) return undefined;
    return e;
  }

  get(scope: Scope, key: string): KvEntry | undefined {
    return this.live(scope, key);
  }

  /** Writes a value; the caller checked if_match against `get`. */
  set(scope: Scope, key: string, value: unknown, ttlSeconds?: number): KvEntry {
    const before = this.entries.get(`${scope}:${key}`);
    const text = JSON.stringify(value ?? null);
    const generation = (before?.generation ?? 0) + 1;
    const now = this.clock();
    const entry: KvEntry = {
      value: value ?? null,
      etag: createHash("sha256").update(`${scope}\0${key}\0${generation}\0${text}`).digest("hex").slice(0, 16),
      generation,
      size: Buffer.byteLength(text),
      updatedAt: now,
      ...(ttlSeconds !== undefined && { expiresAt: now + ttlSeconds * 1000 }),
    };
    this.entries.set(`${scope}:${key}`, entry);
    this.save();
    return entry;
  }

  /** Removes a key; true when it existed. */
  delete(scope: Scope, key: string): boolean {
    const existed = this.live(scope, key) !== undefined;
    const before = this.entries.get(`${scope}:${key}`);
    if (before && !before.deleted) {
      this.entries.set(`${scope}:${key}`, { ...before, value: null, size: 0, deleted: true, updatedAt: this.clock() });
      this.save();
    }
    return existed;
  }

  /** Live keys of a scope (every scope when omitted), sorted. */
  list(scope?: Scope, prefix = ""): KvItem[] {
    const out: KvItem[] = [];
    for (const k of this.entries.keys()) {
      const colon = k.indexOf(":");
      const s = k.slice(0, colon) as Scope;
      const key = k.slice(colon + 1);
      if ((scope && s !== scope) || !key.startsWith(prefix)) continue;
      const e = this.live(s, key);
      if (e) out.push({ ...e, scope: s, key });
    }
    return out.sort((a, b) => (a.scope === b.scope ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.scope < b.scope ? -1 : 1));
  }

  /**
   * Whether one more key fits under `maxKeys`. Deleted and expired entries are dropped to make
   * room; only then can a recreated key's generation start again at 1.
   */
  hasRoom(scope: Scope, key: string, maxKeys: number): boolean {
    if (this.entries.has(`${scope}:${key}`) || this.entries.size < maxKeys) return true;
    const now = this.clock();
    for (const [k, e] of this.entries) if (e.deleted || (e.expiresAt !== undefined && now >= e.expiresAt)) this.entries.delete(k);
    return this.entries.size < maxKeys;
  }

  /** Bytes of live values, for the quota. */
  bytes(): number {
    let n = 0;
    for (const e of this.entries.values()) if (!e.deleted) n += e.size;
    return n;
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.entries), null, 2));
    renameSync(tmp, this.file);
  }
}
