/** The page's Mock host panel on the server: the rules in use, and the storage (keys and files) to browse and edit. */
import { parseRules, SCOPES, type MockHost, type Scope } from "../../host/index.js";
import { type Body, HttpError } from "./http.js";
import type { Inspector } from "./inspector.js";
import type { StorageListing } from "./wire.js";

/** Rules pasted in the page replace those in use; an empty text removes them. */
export function setRules(inspector: Inspector, text: string): { count: number } {
  const mock = inspector.workbench.mockHost;
  if (!text.trim()) {
    mock.ruleSet = undefined;
    inspector.setRulesInfo(undefined);
    inspector.pushHost();
    return { count: 0 };
  }
  let rules;
  try {
    rules = parseRules(text, "rules");
  } catch (error) {
    throw new HttpError(
      400,
      (error as Error).message,
      'one JSON object a line: {"method", "match"?, "result" | "error"}, or anna-app\'s {"ns", "method", ...}',
    );
  }
  mock.ruleSet = rules;
  inspector.setRulesInfo({ source: "pasted in the page", count: rules.rules.length, text });
  inspector.pushHost();
  return { count: rules.rules.length };
}

function scopeOf(body: Body): Scope {
  const scope = body.string("scope");
  if (!(SCOPES as readonly string[]).includes(scope))
    throw new HttpError(400, `scope must be one of ${SCOPES.join(", ")}`);
  return scope as Scope;
}

export function listStorage(mock: MockHost, redact: <T>(v: T) => T): StorageListing {
  return {
    kv: mock.kv.list().map((e) => ({
      scope: e.scope,
      key: e.key,
      value: redact(e.value),
      etag: e.etag,
      size: e.size,
      ...(e.expiresAt !== undefined && { expiresAt: e.expiresAt }),
    })),
    files: mock.files
      .list()
      .map((f) => ({ scope: f.scope, path: f.path, size: f.size, contentType: f.contentType, etag: f.etag })),
  };
}

/** One edit of the storage: set or delete a key, write or delete a file. */
export function editStorage(mock: MockHost, action: string, body: Body): void {
  const scope = scopeOf(body);
  switch (action) {
    case "kv-set": {
      const key = body.string("key");
      if (!key) throw new HttpError(400, "key must not be empty");
      mock.kv.set(scope, key, body.value("value") ?? null);
      return;
    }
    case "kv-delete":
      mock.kv.delete(scope, body.string("key"));
      return;
    case "file-write": {
      const path = body.string("path");
      const text = body.optionalString("text");
      const base64 = body.optionalString("base64");
      if ((text === undefined) === (base64 === undefined))
        throw new HttpError(400, "give the file's text or its base64, one of the two");
      const bytes = text !== undefined ? Buffer.from(text, "utf8") : Buffer.from(base64!, "base64");
      try {
        mock.files.write(
          scope,
          path,
          bytes,
          body.optionalString("contentType") || "application/octet-stream",
          Date.now(),
        );
      } catch (error) {
        throw new HttpError(400, (error as Error).message);
      }
      return;
    }
    case "file-delete":
      mock.files.delete(scope, body.string("path"));
      return;
    default:
      throw new HttpError(404, `no storage action ${JSON.stringify(action)}`);
  }
}

/** A file's bytes, for download (never rendered by the browser: it is served as an attachment). */
export function readStorageFile(mock: MockHost, scope: string, path: string): Buffer {
  if (!(SCOPES as readonly string[]).includes(scope))
    throw new HttpError(400, `scope must be one of ${SCOPES.join(", ")}`);
  const bytes = mock.files.read(scope as Scope, path);
  if (!bytes) throw new HttpError(404, `no file ${JSON.stringify(path)} in scope ${scope}`);
  return bytes;
}
