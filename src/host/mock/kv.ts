/**
 * The key-value store behind `storage/*`: three scopes, ETags that change with every write,
 * generations that keep counting across deletes (an old ETag never matches a new value), and
 * expiry. In memory, or in the mock host's folder one file per key (`kv/<hash>.json`, written to
 * an exclusive temp name and renamed): a write costs the size of its key, and two workbenches on
 * one folder each see the other's keys and lose none. Browsable from outside (the web
 * workbench's storage panel) through the same methods.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../common/atomic-write.js";

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

type Saved = Partial<KvEntry> & { scope?: unknown; key?: unknown };

function entryFrom(v: Saved | undefined): KvEntry | undefined {
  if (!v || typeof v.etag !== "string" || typeof v.generation !== "number") return undefined;
  const { scope: _scope, key: _key, ...rest } = v;
  const text = JSON.stringify(v.value ?? null);
  return { size: Buffer.byteLength(text), updatedAt: 0, ...rest, value: v.value ?? null } as KvEntry;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

export class KvStore {
  private readonly entries = new Map<string, KvEntry>();
  private readonly dir: string | undefined;

  /** `dir`: the folder of per-key files; a `kv.json` beside it (an older layout) is read as the starting point. */
  constructor(
    dir: string | undefined,
    private readonly clock: () => number,
  ) {
    this.dir = dir;
    if (!dir) return;
    const legacy = join(dir, "..", "kv.json");
    if (existsSync(legacy)) {
      for (const [k, v] of Object.entries((readJson(legacy) ?? {}) as Record<string, Saved>)) {
        const e = entryFrom(v);
        if (e) this.entries.set(k, e);
      }
    }
    this.reload();
  }

  private fileOf(k: string): string {
    return join(this.dir!, `${createHash("sha256").update(k).digest("hex").slice(0, 40)}.json`);
  }

  /** Every key file in the folder (another workbench's writes too). */
  private reload(): void {
    if (!this.dir || !existsSync(this.dir)) return;
    for (const name of readdirSync(this.dir)) {
      if (!/^[0-9a-f]{40}\.json$/.test(name)) continue;
      this.adopt(readJson(join(this.dir, name)) as Saved | undefined);
    }
  }

  private adopt(saved: Saved | undefined): KvEntry | undefined {
    const e = entryFrom(saved);
    if (!e || typeof saved?.scope !== "string" || typeof saved.key !== "string") return undefined;
    const k = `${saved.scope}:${saved.key}`;
    const known = this.entries.get(k);
    if (
      !known ||
      known.generation < e.generation ||
      (known.generation === e.generation && known.updatedAt < e.updatedAt)
    )
      this.entries.set(k, e);
    return this.entries.get(k);
  }

  /** The key as the folder has it now (another workbench may have written it). */
  private refresh(scope: Scope, key: string): void {
    if (!this.dir) return;
    this.adopt(readJson(this.fileOf(`${scope}:${key}`)) as Saved | undefined);
  }

  private live(scope: Scope, key: string): KvEntry | undefined {
    this.refresh(scope, key);
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
    this.refresh(scope, key);
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
    this.save(scope, key);
    return entry;
  }

  /** Removes a key; true when it existed. */
  delete(scope: Scope, key: string): boolean {
    const existed = this.live(scope, key) !== undefined;
    const before = this.entries.get(`${scope}:${key}`);
    if (before && !before.deleted) {
      this.entries.set(`${scope}:${key}`, { ...before, value: null, size: 0, deleted: true, updatedAt: this.clock() });
      this.save(scope, key);
    }
    return existed;
  }

  /** Live keys of a scope (every scope when omitted), sorted. */
  list(scope?: Scope, prefix = ""): KvItem[] {
    this.reload();
    const out: KvItem[] = [];
    for (const k of this.entries.keys()) {
      const colon = k.indexOf(":");
      const s = k.slice(0, colon) as Scope;
      const key = k.slice(colon + 1);
      if ((scope && s !== scope) || !key.startsWith(prefix)) continue;
      const e = this.live(s, key);
      if (e) out.push({ ...e, scope: s, key });
    }
    return out.sort((a, b) =>
      a.scope === b.scope ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.scope < b.scope ? -1 : 1,
    );
  }

  /**
   * Whether one more key fits under `maxKeys`. Deleted and expired entries are dropped to make
   * room; only then can a recreated key's generation start again at 1.
   */
  hasRoom(scope: Scope, key: string, maxKeys: number): boolean {
    if (this.entries.has(`${scope}:${key}`) || this.entries.size < maxKeys) return true;
    const now = this.clock();
    for (const [k, e] of this.entries) {
      if (!e.deleted && (e.expiresAt === undefined || now < e.expiresAt)) continue;
      this.entries.delete(k);
      if (this.dir) rmSync(this.fileOf(k), { force: true });
    }
    return this.entries.size < maxKeys;
  }

  /** Bytes of live values, for the quota. */
  bytes(): number {
    let n = 0;
    for (const e of this.entries.values()) if (!e.deleted) n += e.size;
    return n;
  }

  private save(scope: Scope, key: string): void {
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true });
    writeFileAtomic(
      this.fileOf(`${scope}:${key}`),
      JSON.stringify({ scope, key, ...this.entries.get(`${scope}:${key}`) }),
      0o600,
    );
  }
}
