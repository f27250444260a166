/** storage/*: ETags and if_match, TTL, the three scopes, list pages, limits, the storage folder, browsing from outside. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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
    assert.deepEqual(result(await call(host, "storage/get", { key: "k", scope: "tool" })), {
      value: { n: 1 },
      etag: set.etag,
      exists: true,
    });
    assert.deepEqual(result(await call(host, "storage/get", { key: "nope", scope: "tool" })), {
      value: null,
      exists: false,
    });
    result(await call(host, "storage/set", { key: "n", value: null, scope: "tool" }));
    assert.deepEqual(result<Got>(await call(host, "storage/get", { key: "n", scope: "tool" })).exists, true);
  });

  it("writes with if_match only over the current etag (PRECONDITION_FAILED otherwise)", async () => {
    const host = new MockHost();
    const first = result<Set>(await call(host, "storage/set", { key: "k", value: 1, scope: "user" }));
    const second = result<Set>(
      await call(host, "storage/set", { key: "k", value: 2, scope: "user", if_match: first.etag }),
    );
    assert.notEqual(second.etag, first.etag);
    assert.equal(second.generation, 2);
    const stale = error(await call(host, "storage/set", { key: "k", value: 3, scope: "user", if_match: first.etag }));
    assert.equal(stale.code, -32023);
    assert.equal(stale.data?.errorCode, "precondition_failed");
    assert.equal(stale.data?.current_etag, second.etag);
    assert.match(
      error(await call(host, "storage/set", { key: "new", value: 1, scope: "user", if_match: "abc" })).message,
      /does not exist in scope user/,
    );
    assert.equal(
      error(await call(host, "storage/delete", { key: "k", scope: "user", if_match: first.etag })).code,
      -32023,
    );
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
    assert.equal(
      error(await call(host, "storage/set", { key: "k", value: "x", scope: "tool", if_match: before.etag })).code,
      -32023,
    );
  });

  it("deletes idempotently", async () => {
    const host = new MockHost();
    assert.deepEqual(result(await call(host, "storage/delete", { key: "never", scope: "app" })), { deleted: true });
  });

  it("forgets a value after ttl_seconds", async () => {
    const clock = fakeClock();
    const host = new MockHost({ clock: clock.now });
    const set = result<Set>(
      await call(host, "storage/set", { key: "draft", value: "x", scope: "tool", ttl_seconds: 60 }),
    );
    assert.equal(set.expires_at, new Date(clock.now() + 60_000).toISOString());
    clock.advance(59_999);
    assert.equal(result<Got>(await call(host, "storage/get", { key: "draft", scope: "tool" })).exists, true);
    clock.advance(1);
    assert.equal(result<Got>(await call(host, "storage/get", { key: "draft", scope: "tool" })).exists, false);
    assert.deepEqual(result<Listed>(await call(host, "storage/list", { scope: "tool" })).items, []);
    assert.match(
      error(await call(host, "storage/set", { key: "d", value: 1, scope: "tool", ttl_seconds: 0 })).message,
      /ttl_seconds must be at least 1/,
    );
  });

  it("keeps the user, app and tool scopes apart; app is the default, anything else is refused", async () => {
    const host = new MockHost();
    for (const scope of ["user", "app", "tool"])
      result(await call(host, "storage/set", { key: "k", value: scope, scope }));
    for (const scope of ["user", "app", "tool"])
      assert.equal(result<Got>(await call(host, "storage/get", { key: "k", scope })).value, scope);
    assert.equal(result<Got>(await call(host, "storage/get", { key: "k" })).value, "app");
    const e = error(await call(host, "storage/get", { key: "k", scope: "global" }));
    assert.equal(e.code, -32028);
    assert.match(e.message, /scope must be one of "user", "app", "tool"/);
    assert.deepEqual(
      host.kv.list("user").map((i) => i.value),
      ["user"],
    );
  });

  it("lists a scope by prefix in pages, key-value items and files, with kind", async () => {
    const host = new MockHost();
    for (const key of ["note:b", "note:a", "note:c", "other"])
      result(await call(host, "storage/set", { key, value: 1, scope: "tool" }));
    host.files.write("tool", "note:file.txt", Buffer.from("x"), "text/plain", Date.now());
    const first = result<Listed>(await call(host, "storage/list", { scope: "tool", prefix: "note:", limit: 2 }));
    assert.deepEqual(
      first.items.map((i) => i.key),
      ["note:a", "note:b"],
    );
    assert.ok(first.next_cursor);
    const second = result<Listed>(
      await call(host, "storage/list", { scope: "tool", prefix: "note:", limit: 2, cursor: first.next_cursor }),
    );
    assert.deepEqual(
      second.items.map((i) => `${i.key} ${i.kind}`),
      ["note:c kv", "note:file.txt file"],
    );
    assert.equal(second.next_cursor, null);
    assert.deepEqual(
      result<Listed>(await call(host, "storage/list", { scope: "tool", kind: "file" })).items.map((i) => i.path),
      ["note:file.txt"],
    );
    assert.equal(result<Listed>(await call(host, "storage/list", { scope: "tool", kind: "kv" })).items.length, 4);
    assert.match(
      error(await call(host, "storage/list", { scope: "tool", cursor: "garbage!" })).message,
      /not one this host gave/,
    );
    assert.match(
      error(await call(host, "storage/list", { scope: "tool", limit: 0 })).message,
      /limit must be at least 1/,
    );
    assert.match(
      error(await call(host, "storage/list", { scope: "tool", kind: "blob" })).message,
      /kind must be "kv" or "file"/,
    );
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
    const set = result<Set>(
      await call(new MockHost({ storageDir: dir }), "storage/set", { key: "k", value: { n: 1 }, scope: "tool" }),
    );
    const again = new MockHost({ storageDir: dir });
    assert.deepEqual(result(await call(again, "storage/get", { key: "k", scope: "tool" })), {
      value: { n: 1 },
      etag: set.etag,
      exists: true,
    });
    assert.equal(result<Set>(await call(again, "storage/set", { key: "k", value: 2, scope: "tool" })).generation, 2);
    assert.deepEqual(result(await call(new MockHost(), "storage/get", { key: "k", scope: "tool" })), {
      value: null,
      exists: false,
    });
    // The storage panel: list, get, set, delete per scope, seen by the plugin.
    again.kv.set("user", "from-panel", "hi");
    assert.equal(result<Got>(await call(again, "storage/get", { key: "from-panel", scope: "user" })).value, "hi");
    assert.deepEqual(
      again.kv.list().map((i) => `${i.scope}:${i.key}`),
      ["tool:k", "user:from-panel"],
    );
    assert.equal(again.kv.delete("user", "from-panel"), true);
    assert.deepEqual(readdirSync(dir).sort(), ["blobs", "kv"]);
  });

  it("two workbenches on one --storage folder lose no key, and each write costs the size of its key, not of the store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-store-shared-"));
    const harness = join(dirname(fileURLToPath(import.meta.url)), "harness.js");
    const worker = (name: string) => `
      const { MockHost } = await import(${JSON.stringify(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "src", "host", "index.js"))});
      const { call } = await import(${JSON.stringify(harness)});
      const host = new MockHost({ storageDir: ${JSON.stringify(dir)} });
      for (let i = 0; i < 400; i++) {
        const a = await call(host, "storage/set", { key: "${name}-" + i, value: { i }, scope: "app" });
        if (a.error) throw new Error(JSON.stringify(a.error));
      }
      await host.close();`;
    const run = (name: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", worker(name)], {
          stdio: ["ignore", "ignore", "inherit"],
        });
        child.on("exit", resolve);
      });
    assert.deepEqual(await Promise.all([run("a"), run("b")]), [0, 0]);
    const keys = new MockHost({ storageDir: dir }).kv.list("app").map((i) => i.key);
    assert.equal(keys.length, 800, "every key of both workbenches is kept");
    await provesProportional(dir);
  });
});

/** Bytes this process wrote so far (Linux). */
function bytesWritten(): number {
  return Number(/wchar:\s*(\d+)/.exec(readFileSync("/proc/self/io", "utf8"))![1]);
}

/** 4,000 sets write about 20 times what 200 sets write: O(N) in all, not O(N^2) (a whole store file per set). */
async function provesProportional(dir: string): Promise<void> {
  if (!existsSync("/proc/self/io")) return;
  const host = new MockHost({ storageDir: dir });
  const writes = async (n: number, from: number) => {
    const before = bytesWritten();
    for (let i = from; i < from + n; i++)
      result(await call(host, "storage/set", { key: `many-${i}`, value: "v".repeat(20), scope: "tool" }));
    return bytesWritten() - before;
  };
  const small = await writes(200, 0);
  const large = await writes(4000, 200);
  assert.ok(large < small * 20 * 2, `200 sets wrote ${small} bytes, 4,000 sets ${large}`);
  await host.close();
}

describe("bounded tables", () => {
  it("holds at most MAX_ENTRIES presigned URLs: the oldest stop working, uploads with them", async () => {
    const { MAX_ENTRIES } = await import("../../../src/host/mock/bounded.js");
    const host = new MockHost();
    try {
      const first = result<{ put_url: string }>(
        await call(host, "files/upload_begin", { path: "first", scope: "user" }),
      );
      for (let i = 0; i < MAX_ENTRIES; i++)
        result(await call(host, "files/upload_begin", { path: `p${i}`, scope: "user" }));
      assert.equal((await fetch(first.put_url, { method: "PUT", body: "x" })).status, 404);
      assert.equal(host.log.length, MAX_ENTRIES + 1);
    } finally {
      await host.close();
    }
  });
});
