/** What `storage/*` and `files/*` read alike: the scope, and pages of a sorted list with an opaque cursor. */
import type { Params } from "./params.js";
import { SCOPES, type Scope } from "./kv.js";

/** The SDKs' default scope when a request names none. */
export const DEFAULT_SCOPE: Scope = "app";

export function scopeOf(p: Params): Scope {
  return p.oneOf("scope", SCOPES, DEFAULT_SCOPE);
}

/** One page of `items` (sorted by `key`) after the cursor; the cursor is the last key given, encoded. */
export function page<T>(p: Params, items: T[], key: (item: T) => string): { items: T[]; next_cursor: string | null } {
  const limit = p.integer("limit", { min: 1, max: 1000 }) ?? 100;
  const cursor = p.string("cursor");
  let after: string | undefined;
  if (cursor) {
    try {
      const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      if (typeof decoded !== "string") throw new Error("not a key");
      after = decoded;
    } catch {
      throw p.bad(
        `cursor ${JSON.stringify(cursor.slice(0, 40))} is not one this host gave; pass next_cursor from the previous page as is`,
      );
    }
  }
  const rest = after === undefined ? items : items.filter((i) => key(i) > after!);
  const taken = rest.slice(0, limit);
  const more = rest.length > limit;
  return {
    items: taken,
    next_cursor: more ? Buffer.from(JSON.stringify(key(taken.at(-1)!))).toString("base64url") : null,
  };
}
