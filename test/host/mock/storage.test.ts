/** storage/*: ETags and if_match, TTL, the three scopes, list pages, limits, the storage folder, browsing from outside. */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { MockHost } from "../../../src/host/index.js";
import { call, error, fakeClock, result } from "./harness.js";

type Set = { etag: string; generation: number; size_bytes: number; expires_at?: string };
type Got = { value: unknown; etag?: string; exists: boolean };
type Listed = { items: { key: string; kind: string; etag: string; path?: string }[]; next_cursor: string | null };

describe("storage/*", () => {
  it("sets and gets a value; a missing key is {value: null, exists: false}", async () => {
    const host = new MockHost();
    const set = result<Set>(await call(host, "storage/set", { key: "k", value: { n: 1 }, scope: "tool" }));
    assert.equal(set.generation, 1);
    assert.equal(set.size_bytes, 7);
    assert.deepEqual(result(await call(host, "storage/get", { key: "k", scope: "tool" })), { value: { n: 1 }, etag: set.etag, exists: true });
    assert.deepEqual(result(await call(host, "storage/get", { key: "nope", scope: "tool" })), { value: null, exists: false });
    result(await call(host, "storage/set", { key: "n", value: null, scope: "tool" }));
    assert.deepEqual(result<Got>(await call(host, "storage/get", { key: "n", scope: "tool" })).exists, true);
  });

  it("writes with if_match only over the current etag (PRECONDITION_FAILED otherwise)", async () => {
    const host = new MockHost();
    const first = result<Set>(await call(host, "storage/set", { key: "k", value: 1, scope: "user" }));
    const second = result<Set>(await call(host, "storage/set", { key: "k", value: 2, scope: "user", if_match: first.etag }));
    assert.notEqual(second.etag, first.etag);
    assert.equal(second.generation, 2);
    const stale = error(await call(host, "storage/set", { key: "k", value: 3, scope: "user", if_match: first.etag }));
    assert.equal(stale.code, -32023);
    assert.equal(stale.data?.errorCode, "precondition_failed");
    assert.equal(stale.data?.current_etag, second.etag);
    assert.match(error(await call(host, "storage/set", { key: "new", value: 1, scope: "user", if_match: "abc" })).message, /does not exist in scope user/);
    assert.equal(error(await call(host, "storage/delete", { key: "k", scope: "user", if_match: first.etag })).code, -32023);
    result(await call(host, "storage/delete", { key: "k", scope: "user", if_match: second.etag }));
    assert.equal(result<Got>(await call(host, "storage/get", { key: "k", scope: "user" })).exists, false);
  });

  it("never gives a recreated key an etag it had before (generations count across deletes)", async () => {
    const host = new MockHost();
    const before = result<Set>(await call(host, "storage/set", { key: "k", value: "same", scope: "tool" }));
    result(await call(host, "storage/delete", { key: "k", scope: "tool" }));
    const after = result<Set>(await call(host, "storage/set", { key: "k", value: "same", scope: "tool" }));
    assert.equal(after.generation, 2);
    assert.notEqual(after.etag, before.etag);
    assert.equal(error(await call(host, "storage/set", { key: "k", value: "x", scope: "tool", if_match: before.etag })).code, -32023);
  });

  it("deletes idempotently", async () => {
    const host = new MockHost();
    assert.deepEqual(result(await call(host, "storage/delete", { key: "never", scope: "app" })), { deleted: true });
  });

  it("forgets a value after ttl_seconds", async () => {
    const clock = fakeClock();
    const host = new MockHost({ clock: clock.now });
    const set = result<Set>(await call(host, "storage/set", { key: "draft", value: "x", scope: "tool", ttl_seconds: 60 }));
    assert.equal(set.expires_at, new Date(clock.now() + 60_000).toISOString());
    clock.advance(59_999);
    assert.equal(result<Got>(await call(host, "storage/get", { key: "draft", scope: "tool" })).exists, true);
    clock.advance(1);
    assert.equal(result<Got>(await call(host, "storage/get", { key: "draft", scope: "tool" })).exists, false);
    assert.deepEqual(result<Listed>(await call(host, "storage/list", { scope: "tool" })).items, []);
    assert.match(error(await call(host, "storage/set", { key: "d", value: 1, scope: "tool", ttl_seconds: 0 })).message, /ttl_seconds must be at least 1/);
  });

  it("keeps the user, app and tool scopes apart; app is the default, anything else is refused", async () => {
    const host = new MockHost();
    for (const scope of ["user", "app", "tool"]) result(await call(host, "storage/set", { key: "k", value: scope, scope }));
    for (const scope of ["user", "app", "tool"]) assert.equal(result<Got>(await call(host, "storage/get", { key: "k", scope })).value, scope);
    assert.equal(result<Got>(await call(host, "storage/get", { key: "k" })).value, "app");
    const e = error(await call(host, "storage/get", { key: "k", scope: "global" }));
    assert.equal(e.code, -32028);
    assert.match(e.message, /scope must be one of "user", "app", "tool"/);
    assert.deepEqual(host.kv.list("user").map((i) => i.value), ["user"]);
  });

  it("lists a scope by prefix in pages, key-value items and files, with kind", async () => {
    const host = new MockHost();
    for (const key of ["note:b", "note:a", "note:c", "other"]) result(await call(host, "storage/set", { key, value: 1, scope: "tool" }));
    host.files.write("tool", "note:file.txt", Buffer.from("x"), "text/plain", Date.now());
    const first = result<Listed>(await call(host, "storage/list", { scope: "tool", prefix: "note:", limit: 2 }));
    assert.deepEqual(first.items.map((i) => i.key), ["note:a", "note:b"]);
    assert.ok(first.next_cursor);
    const second = result<Listed>(await call(host, "storage/list", { scope: "tool", prefix: "note:", limit: 2, cursor: first.next_cursor }));
    assert.deepEqual(second.items.map((i) => `${i.key} ${i.kind}`), ["note:c kv", "note:file.txt file"]);
    assert.equal(second.next_cursor, null);
    assert.deepEqual(result<Listed>(await call(host, "storage/list", { scope: "tool", kind: "file" })).items.map((i) => i.path), ["note:file.txt"]);
    assert.equal(result<Listed>(await call(host, "storage/list", { scope: "tool", kind: "kv" })).items.length, 4);
    assert.match(error(await call(host, "storage/list", { scope: "tool", cursor: "garbage!" })).message, /not one this host gave/);
    assert.match(error(await call(host, "storage/list", { scope: "tool", limit: 0 })).message, /limit must be at least 1/);
    assert.match(error(await call(host, "storage/list", { scope: "tool", kind: "blob" })).message, /kind must be "kv" or "file"/);
  });

  it("refuses a value over 64 KB, a missing value and a bad key", async () => {
    const host = new MockHost();
    const e = error(await call(host, "storage/set", { key: "k", value: "x".repeat(64 * 1024), scope: "tool" }));
    assert.equal(e.code, -32025);
    assert.match(e.message, /65538 bytes serialised; a key holds at most 65536/);
    result(await call(host, "storage/set", { key: "k", value: "x".repeat(64 * 1024 - 2), scope: "tool" }));
    assert.match(error(await call(host, "storage/set", { key: "k", scope: "tool" })).message, /value is required/);
    assert.match(error(await call(host, "storage/set", { key: "", value: 1 })).message, /key must not be empty/);
    assert.match(error(await call(host, "storage/get", { key: 5 })).message, /key must be a string, got a number/);
    assert.match(error(await call(host, "storage/get", { key: "a\nb" })).message, /control character/);
  });

  it("keeps storage in a folder across hosts with --storage, and is browsable from outside", async () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-store-"));
    const set = result<Set>(await call(new MockHost({ storageDir: dir }), "storage/set", { key: "k", value: { n: 1 }, scope: "tool" }));
    const again = new MockHost({ storageDir: dir });
    assert.deepEqual(result(await call(again, "storage/get", { key: "k", scope: "tool" })), { value: { n: 1 }, etag: set.etag, exists: true });
    assert.equal(result<Set>(await call(again, "storage/set", { key: "k", value: 2, scope: "tool" })).generation, 2);
    assert.deepEqual(result(await call(new MockHost(), "storage/get", { key: "k", scope: "tool" })), { value: null, exists: false });
    // The storage panel: list, get, set, delete per scope, seen by the plugin.
    again.kv.set("user", "from-panel", "hi");
    assert.equal(result<Got>(await call(again, "storage/get", { key: "from-panel", scope: "user" })).value, "hi");
    assert.deepEqual(again.kv.list().map((i) => `${i.scope}:${i.key}`), ["tool:k", "user:from-panel"]);
    assert.equal(again.kv.delete("user", "from-panel"), true);
    assert.deepEqual(readdirSync(dir).sort(), ["blobs", "kv.json"]);
  });
});

describe("bounded tables", () => {
  it("holds at most MAX_ENTRIES presigned URLs: the oldest stop working, uploads with them", async () => {
    const { MAX_ENTRIES } = await import("../../../src/host/mock/bounded.js");
    const host = new MockHost();
    try {
      const first = result<{ put_url: string }>(await call(host, "files/upload_begin", { path: "first", scope: "user" }));
      for (let i = 0; i < MAX_ENTRIES; i++) result(await call(host, "files/upload_begin", { path: `p${i}`, scope: "user" }));
      assert.equal((await fetch(first.put_url, { method: "PUT", body: "x" })).status, 404);
      assert.equal(host.log.length, MAX_ENTRIES + 1);
    } finally {
      await host.close();
    }
  });
});
