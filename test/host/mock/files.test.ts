/** files/*, host/uploadFile and the local HTTP server: real PUTs with ETags, tokens, path safety, limits, expiry. */
import assert from "node:assert/strict";
import { request } from "node:http";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { MockHost } from "../../../src/host/index.js";
import { call, ctx, error, fakeClock, result } from "./harness.js";

type Begin = { upload_id: string; put_url: string; headers: Record<string, string>; expires_at: string };
type Negotiated = { put_url: string; headers: Record<string, string>; r2_key: string; expires_at: string };
type Uploaded = { download_url: string; r2_key: string; size_bytes: number; expires_at: string };

const hosts: MockHost[] = [];
const newHost = (...args: ConstructorParameters<typeof MockHost>) => {
  const host = new MockHost(...args);
  hosts.push(host);
  return host;
};
after(() => Promise.all(hosts.map((h) => h.close())));

/** A raw HTTP request (fetch normalises paths and the Host header; the safety tests must not). */
function raw(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: options.method ?? "GET",
        path: options.path ?? u.pathname,
        headers: options.headers,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

async function uploadText(host: MockHost, path: string, text: string, scope = "user") {
  const begin = result<Begin>(
    await call(host, "files/upload_begin", {
      path,
      scope,
      content_type: "text/plain",
      size_bytes: Buffer.byteLength(text),
    }),
  );
  const put = await fetch(begin.put_url, { method: "PUT", headers: begin.headers, body: text });
  assert.equal(put.status, 200, await put.clone().text());
  const etag = put.headers.get("etag")!;
  return {
    begin,
    etag,
    complete: await call(host, "files/upload_complete", { path, scope, etag, size_bytes: Buffer.byteLength(text) }),
  };
}

describe("files/*", () => {
  it("takes a real PUT at the presigned URL, answers an ETag, and completes, lists, downloads and deletes", async () => {
    const host = newHost();
    const { begin, etag, complete } = await uploadText(host, "notes/hello.txt", "hello");
    assert.match(begin.put_url, /^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/put\/[0-9a-f]{32}$/);
    assert.deepEqual(begin.headers, { "Content-Type": "text/plain" });
    assert.equal(etag, '"5d41402abc4b2a76b9719d911017c592"');
    assert.deepEqual(result(complete), {
      ok: true,
      path: "notes/hello.txt",
      scope: "user",
      size_bytes: 5,
      content_type: "text/plain",
      etag,
      updated_at: (result(complete) as { updated_at: string }).updated_at,
    });
    const list = result<{ items: { path: string; size_bytes: number }[] }>(
      await call(host, "files/list", { scope: "user", prefix: "notes/" }),
    );
    assert.deepEqual(
      list.items.map((i) => [i.path, i.size_bytes]),
      [["notes/hello.txt", 5]],
    );
    const link = result<{ url: string; get_url: string; expires_at: string }>(
      await call(host, "files/download_url", { path: "notes/hello.txt", scope: "user", expires_in: 60 }),
    );
    assert.equal(link.url, link.get_url);
    const got = await fetch(link.url);
    assert.equal(got.headers.get("content-type"), "text/plain");
    assert.equal(await got.text(), "hello");
    assert.deepEqual(result(await call(host, "files/delete", { path: "notes/hello.txt", scope: "user" })), {
      deleted: true,
    });
    assert.equal((await fetch(link.url)).status, 404);
    assert.equal(
      error(await call(host, "files/download_url", { path: "notes/hello.txt", scope: "user" })).code,
      -32022,
    );
    assert.deepEqual(result(await call(host, "files/delete", { path: "notes/hello.txt", scope: "user" })), {
      deleted: true,
    });
    assert.deepEqual(host.files.list(), []);
  });

  it("upload_complete verifies the object: nothing PUT, a wrong etag, a wrong size", async () => {
    const host = newHost();
    assert.match(
      error(await call(host, "files/upload_complete", { path: "a.txt", scope: "tool" })).message,
      /no upload was begun/,
    );
    const begin = result<Begin>(await call(host, "files/upload_begin", { path: "a.txt", scope: "tool" }));
    const nothing = error(await call(host, "files/upload_complete", { path: "a.txt", scope: "tool" }));
    assert.equal(nothing.code, -32022);
    assert.match(nothing.message, /nothing was PUT/);
    const put = await fetch(begin.put_url, { method: "PUT", body: "abc" });
    assert.equal(put.status, 200);
    assert.equal(
      error(await call(host, "files/upload_complete", { path: "a.txt", scope: "tool", etag: '"0000"' })).code,
      -32023,
    );
    assert.match(
      error(await call(host, "files/upload_complete", { path: "a.txt", scope: "tool", size_bytes: 4 })).message,
      /size_bytes 4 does not match the 3 bytes/,
    );
    // An unquoted etag is the same etag.
    result(
      await call(host, "files/upload_complete", {
        path: "a.txt",
        scope: "tool",
        etag: put.headers.get("etag")!.replace(/"/g, ""),
      }),
    );
    assert.equal(host.files.read("tool", "a.txt")!.toString(), "abc");
    assert.equal(
      (await fetch(begin.put_url, { method: "PUT", body: "late" })).status,
      507,
      "a completed upload takes no more bytes",
    );
  });

  it("refuses unsafe paths with INVALID_PATH", async () => {
    const host = newHost();
    for (const path of ["../etc/passwd", "/abs", "a/../b", "a//b", "a\\b", "dir/", "a/./b", "new\nline", ""]) {
      const e = error(await call(host, "files/upload_begin", { path, scope: "user" }));
      assert.equal(e.code, path === "" ? -32028 : -32027, JSON.stringify(path));
    }
  });

  it("refuses an object over the limit, and a PUT larger than announced", async () => {
    const host = newHost();
    assert.equal(
      error(await call(host, "files/upload_begin", { path: "big", scope: "user", size_bytes: 101 * 1024 * 1024 })).code,
      -32025,
    );
    const begin = result<Begin>(
      await call(host, "files/upload_begin", { path: "small", scope: "user", size_bytes: 4 }),
    );
    assert.equal((await fetch(begin.put_url, { method: "PUT", body: "12345" })).status, 413);
    assert.equal((await fetch(begin.put_url, { method: "PUT", body: "1234" })).status, 200);
  });

  it("keeps files in the storage folder by ids of its own, across hosts, and drops uploads never completed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-files-"));
    const host = newHost({ storageDir: dir });
    result((await uploadText(host, "../../escape.txt".replace("../../", "a/"), "kept")).complete);
    const pending = result<Begin>(await call(host, "files/upload_begin", { path: "never-completed", scope: "user" }));
    await fetch(pending.put_url, { method: "PUT", body: "orphan" });
    assert.equal(readdirSync(join(dir, "blobs")).length, 2);
    await host.close();
    const blobs = readdirSync(join(dir, "blobs"));
    assert.equal(blobs.length, 1);
    assert.match(blobs[0]!, /^[0-9a-f]{32}$/);
    assert.equal(readFileSync(join(dir, "blobs", blobs[0]!), "utf8"), "kept");
    const again = newHost({ storageDir: dir });
    assert.equal(again.files.read("user", "a/escape.txt")!.toString(), "kept");
    // A files.json edited by hand cannot point outside: blob ids are checked, unknown ones dropped.
    writeFileSync(
      join(dir, "files.json"),
      JSON.stringify({
        "user:x": { blobId: "../../../etc/passwd", size: 1, contentType: "text/plain", etag: "e", updatedAt: 0 },
      }),
    );
    assert.deepEqual(newHost({ storageDir: dir }).files.list(), []);
  });
});

describe("the local server", () => {
  it("serves only with the token, on 127.0.0.1, for ids it made, and checks the Host header", async () => {
    const host = newHost();
    const { begin } = await uploadText(host, "x.txt", "secret");
    const link = result<{ url: string }>(await call(host, "files/download_url", { path: "x.txt", scope: "user" })).url;
    const u = new URL(link);
    assert.equal(u.hostname, "127.0.0.1");
    const [, token, , id] = u.pathname.split("/");
    assert.equal((await raw(link)).body, "secret");
    const otherToken = token!.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    for (const path of [
      `/${otherToken}/get/${id}`,
      `/get/${id}`,
      `/${token}/get/${id}/..`,
      `/${token}/get/../../../etc/passwd`,
      `/${token}/get/%2e%2e%2fetc%2fpasswd`,
      `/${token}/files/x.txt`,
      `/${token}/get/${"0".repeat(32)}`,
      `/${token}`,
    ]) {
      const r = await raw(link, { path });
      assert.equal(r.status, 404, path);
      assert.doesNotMatch(r.body, /secret|root:/);
    }
    assert.equal((await raw(link, { headers: { Host: `evil.example:${u.port}` } })).status, 421);
    assert.equal((await raw(link, { method: "POST" })).status, 405);
    assert.equal((await raw(begin.put_url, { method: "GET" })).status, 405);
  });

  it("starts on first need and stops on close", async () => {
    const host = newHost();
    result(await call(host, "storage/get", { key: "k" }));
    const begin = result<Begin>(await call(host, "files/upload_begin", { path: "x", scope: "user" }));
    await host.close();
    await assert.rejects(fetch(begin.put_url, { method: "PUT", body: "x" }));
    assert.match(
      error(await call(host, "files/upload_begin", { path: "y", scope: "user" })).message,
      /the mock host is closed/,
    );
  });

  it("refuses a PUT without the signed Content-Type, and an expired URL", async () => {
    const clock = fakeClock(Date.now());
    const host = newHost({ clock: clock.now });
    const begin = result<Begin>(
      await call(host, "files/upload_begin", { path: "t.json", scope: "user", content_type: "application/json" }),
    );
    const wrong = await fetch(begin.put_url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "{}" });
    assert.equal(wrong.status, 403);
    assert.match(await wrong.text(), /signed for Content-Type "application\/json"/);
    clock.advance(16 * 60 * 1000);
    const late = await fetch(begin.put_url, { method: "PUT", headers: begin.headers, body: "{}" });
    assert.equal(late.status, 403);
    assert.match(await late.text(), /expired/);
  });
});

describe("host/uploadFile", () => {
  it("uploads inline under a key naming the plugin's tool id and the invoke, and serves the download URL", async () => {
    const host = newHost();
    const upload = {
      mode: "inline",
      filename: "poster.png",
      mime_type: "image/png",
      content_b64: Buffer.from("PNGDATA").toString("base64"),
      purpose: "user_artifact",
    };
    const r = result<Uploaded>(
      await call(host, "host/uploadFile", upload, { ctx: { ...ctx(["a"]), toolId: "image-poster" } }),
    );
    assert.equal(r.r2_key, "exec-uploads/dev/mock-user/image-poster/a/image/poster.png");
    const beforeDescribe = result<Uploaded>(await call(host, "host/uploadFile", upload));
    assert.equal(
      beforeDescribe.r2_key,
      "exec-uploads/dev/mock-user/t/a/image/poster.png",
      "before a describe named the plugin, the invoked tool's name",
    );
    assert.equal(r.size_bytes, 7);
    assert.equal(await (await fetch(r.download_url)).text(), "PNGDATA");
  });

  it("refuses over 8 MiB inline, bad base64, a purpose off the whitelist, a bad MIME type or file name", async () => {
    const host = newHost();
    const inline = (extra: Record<string, unknown>) =>
      call(host, "host/uploadFile", {
        mode: "inline",
        filename: "f.bin",
        mime_type: "application/octet-stream",
        content_b64: "AAAA",
        ...extra,
      });
    assert.equal(
      error(await inline({ content_b64: Buffer.alloc(8 * 1024 * 1024 + 1).toString("base64") })).code,
      -32204,
    );
    result(await inline({ content_b64: Buffer.alloc(8 * 1024 * 1024).toString("base64") }));
    assert.equal(error(await inline({ content_b64: "not base64!" })).code, -32203);
    const purpose = error(await inline({ purpose: "image-edit-input" }));
    assert.equal(purpose.code, -32206);
    assert.match(
      purpose.message,
      /purpose 'image-edit-input' not in protocol whitelist \(image_input, image_reference, user_artifact\)/,
    );
    assert.equal(error(await inline({ mime_type: "png" })).code, -32205);
    assert.equal(error(await inline({ filename: "../x" })).code, -32203);
    assert.equal(error(await inline({ mode: "stream" })).code, -32203);
  });

  it("negotiates a PUT URL, then confirms the object for the same invoke only", async () => {
    const host = newHost();
    const bytes = Buffer.alloc(1000, 7);
    const offer = result<Negotiated>(
      await call(host, "host/uploadFile", {
        mode: "negotiate",
        filename: "artifact.bin",
        mime_type: "application/octet-stream",
        size_bytes: bytes.length,
        purpose: "user_artifact",
      }),
    );
    assert.deepEqual(offer.headers, { "Content-Type": "application/octet-stream" });
    assert.equal(error(await call(host, "host/uploadFile", { mode: "confirm", r2_key: offer.r2_key })).code, -32212);
    const put = await fetch(offer.put_url, { method: "PUT", headers: offer.headers, body: bytes });
    assert.equal(put.status, 200);
    assert.ok(put.headers.get("etag"));
    const other = error(
      await call(host, "host/uploadFile", { mode: "confirm", r2_key: offer.r2_key }, { invoke: "b" }),
    );
    assert.equal(other.code, -32203);
    assert.equal(other.message, "r2_key does not belong to this invoke");
    const confirmed = result<Uploaded>(await call(host, "host/uploadFile", { mode: "confirm", r2_key: offer.r2_key }));
    assert.equal(confirmed.size_bytes, 1000);
    assert.deepEqual(Buffer.from(await (await fetch(confirmed.download_url)).arrayBuffer()), bytes);
    assert.equal(
      error(await call(host, "host/uploadFile", { mode: "confirm", r2_key: "exec-uploads/none" })).code,
      -32212,
    );
    assert.equal(
      error(await call(host, "host/uploadFile", { mode: "negotiate", filename: "f", mime_type: "a/b" })).code,
      -32203,
    );
    assert.equal(
      error(
        await call(host, "host/uploadFile", {
          mode: "negotiate",
          filename: "f",
          mime_type: "a/b",
          size_bytes: 200 * 1024 * 1024,
        }),
      ).code,
      -32204,
    );
  });

  it("keeps memory bounded: QUOTA_EXCEEDED past the memory quota", async () => {
    const host = newHost({ memoryQuotaBytes: 1000 });
    const inline = (n: number) =>
      call(host, "host/uploadFile", {
        mode: "inline",
        filename: `f${n}`,
        mime_type: "application/octet-stream",
        content_b64: Buffer.alloc(600).toString("base64"),
      });
    result(await inline(1));
    assert.equal(error(await inline(2)).code, -32202);
  });
});
