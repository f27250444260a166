/**
 * Every mock-host method against a real plugin on each template runtime (TypeScript, Python, Go):
 * the plugin's tool sends the reverse request through the runtime's generic host request, and
 * the answer (or error code) comes back through the invoke. Presigned URLs are PUT with each
 * language's own HTTP client.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MockHost, prepareLaunch, Session, type PreparedLaunch } from "../../../src/host/index.js";
import { PROTOCOL_V2 } from "../../../src/protocol/index.js";
import { PROBES, type ProbeLanguage } from "./probe-plugins.js";
import { requires } from "../../support/requires.js";

type Reply =
  | { ok: true; result: Record<string, unknown> & { [k: string]: unknown } }
  | { ok: false; code: number; message: string; data: { errorCode?: string } | null };
type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const NEEDS: Record<ProbeLanguage, ReturnType<typeof requires>> = {
  ts: requires(),
  python: requires("python3"),
  go: requires("go"),
};

interface Probe {
  call(method: string, params?: Record<string, unknown>): Promise<Reply>;
  ok(method: string, params?: Record<string, unknown>): Promise<Any>;
  code(method: string, params?: Record<string, unknown>): Promise<number>;
  put(
    url: string,
    body: Buffer,
    headers?: Record<string, string>,
  ): Promise<{ status: number; etag: string | null; body: string }>;
  negotiate(body: Buffer): Promise<Any>;
  host: MockHost;
}

const user = (text: string) => ({ messages: [{ role: "user", content: { type: "text", text } }], maxTokens: 64 });

/** One scenario per method of the long reference §7: success and the main error paths. */
const SCENARIOS: [string, (p: Probe) => Promise<void>][] = [
  [
    "sampling/createMessage",
    async (p) => {
      const r = await p.ok("sampling/createMessage", user("hello"));
      assert.equal(r.role, "assistant");
      assert.match(r.content.text, /canned reply/);
      const schema = {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
        additionalProperties: false,
      };
      const structured = await p.ok("sampling/createMessage", {
        ...user("x"),
        responseFormat: { type: "json_schema", json_schema: { name: "person", schema } },
      });
      assert.equal(structured._meta.responseFormat.structuredValid, true);
      assert.ok(JSON.parse(structured.content.text).name);
      assert.equal(await p.code("sampling/createMessage", { maxTokens: 5 }), -32004);
      assert.equal(
        await p.code("sampling/createMessage", {
          ...user("x"),
          responseFormat: { type: "json_schema", json_schema: { name: "bad name", schema } },
        }),
        -32004,
      );
    },
  ],
  [
    "agent/complete",
    async (p) => {
      assert.equal((await p.ok("agent/complete", user("hi"))).model, "executa-mock");
      assert.equal(await p.code("agent/complete", { ...user("x"), maxTokens: -1 }), -32004);
    },
  ],
  [
    "agent/session.create",
    async (p) => {
      const s = await p.ok("agent/session.create", { kind: "agent", agent_submode: "auto", label: "probe" });
      for (const k of [
        "app_session_uuid",
        "expires_in",
        "kind",
        "agent_submode",
        "fixed_client_id",
        "granted_tools",
        "inherit_host_tools",
        "thread_id",
        "system_prompt",
        "expires_at",
        "max_lifetime_at",
        "idle_ttl_seconds",
        "session_expires_in",
      ])
        assert.ok(k in s, k);
      assert.equal(await p.code("agent/session.create", { kind: "chat" }), -32043);
    },
  ],
  [
    "agent/session.run",
    async (p) => {
      const s = await p.ok("agent/session.create", {});
      const run = await p.ok("agent/session.run", { app_session_uuid: s.app_session_uuid, content: "go" });
      assert.equal(run.frames[0].event, "run_meta");
      assert.equal(run.frames[0].warnings[0].code, "NO_TOOLS_AVAILABLE");
      assert.equal(run.frames.at(-1).event, "complete");
      assert.equal(await p.code("agent/session.run", { app_session_uuid: "no-such-session", content: "go" }), -32042);
    },
  ],
  [
    "agent/session.cancel",
    async (p) => {
      const s = await p.ok("agent/session.create", {});
      assert.deepEqual(await p.ok("agent/session.cancel", { app_session_uuid: s.app_session_uuid, run_id: "r-1" }), {
        cancelled: false,
        run_id: "r-1",
      });
      assert.equal(await p.code("agent/session.cancel", { app_session_uuid: s.app_session_uuid }), -32043);
    },
  ],
  [
    "agent/session.history",
    async (p) => {
      const s = await p.ok("agent/session.create", {});
      await p.ok("agent/session.run", { app_session_uuid: s.app_session_uuid, content: "remember me" });
      assert.deepEqual((await p.ok("agent/session.history", { app_session_uuid: s.app_session_uuid })).messages[0], {
        role: "user",
        content: "remember me",
      });
      assert.equal(await p.code("agent/session.history", { app_session_uuid: "nope" }), -32042);
    },
  ],
  [
    "agent/session.list",
    async (p) => {
      const s = await p.ok("agent/session.create", { label: "listed" });
      assert.ok(
        (await p.ok("agent/session.list", { limit: 100 })).sessions.some(
          (x: Any) => x.app_session_uuid === s.app_session_uuid && x.label === "listed",
        ),
      );
      assert.equal(await p.code("agent/session.list", { limit: 0 }), -32043);
    },
  ],
  [
    "agent/session.refresh",
    async (p) => {
      const s = await p.ok("agent/session.create", {});
      assert.equal(
        (await p.ok("agent/session.refresh", { app_session_uuid: s.app_session_uuid, ttl_seconds: 900 }))
          .idle_ttl_seconds,
        900,
      );
      assert.equal(
        await p.code("agent/session.refresh", { app_session_uuid: s.app_session_uuid, ttl_seconds: "long" }),
        -32043,
      );
    },
  ],
  [
    "agent/session.delete",
    async (p) => {
      const s = await p.ok("agent/session.create", {});
      assert.deepEqual(await p.ok("agent/session.delete", { app_session_uuid: s.app_session_uuid }), { deleted: true });
      assert.equal(await p.code("agent/session.run", { app_session_uuid: s.app_session_uuid, content: "x" }), -32042);
    },
  ],
  [
    "storage/get",
    async (p) => {
      assert.deepEqual(await p.ok("storage/get", { key: "absent", scope: "tool" }), { value: null, exists: false });
      assert.equal(await p.code("storage/get", { key: "k", scope: "galaxy" }), -32028);
    },
  ],
  [
    "storage/set",
    async (p) => {
      const first = await p.ok("storage/set", { key: "k", value: { n: 1 }, scope: "user", ttl_seconds: 3600 });
      assert.equal((await p.ok("storage/get", { key: "k", scope: "user" })).etag, first.etag);
      await p.ok("storage/set", { key: "k", value: { n: 2 }, scope: "user", if_match: first.etag });
      assert.equal(
        await p.code("storage/set", { key: "k", value: { n: 3 }, scope: "user", if_match: first.etag }),
        -32023,
      );
      assert.equal(await p.code("storage/set", { key: "big", value: "x".repeat(70_000), scope: "user" }), -32025);
    },
  ],
  [
    "storage/delete",
    async (p) => {
      const set = await p.ok("storage/set", { key: "gone", value: 1, scope: "app" });
      assert.equal(await p.code("storage/delete", { key: "gone", scope: "app", if_match: "stale" }), -32023);
      assert.deepEqual(await p.ok("storage/delete", { key: "gone", scope: "app", if_match: set.etag }), {
        deleted: true,
      });
    },
  ],
  [
    "storage/list",
    async (p) => {
      await p.ok("storage/set", { key: "list:a", value: 1, scope: "tool" });
      assert.deepEqual(
        (await p.ok("storage/list", { scope: "tool", prefix: "list:" })).items.map((i: Any) => i.key),
        ["list:a"],
      );
      assert.equal(await p.code("storage/list", { scope: "tool", cursor: "not-a-cursor" }), -32028);
    },
  ],
  [
    "files/upload_begin",
    async (p) => {
      const begin = await p.ok("files/upload_begin", {
        path: "probe/begin.txt",
        scope: "user",
        content_type: "text/plain",
        size_bytes: 5,
      });
      const put = await p.put(begin.put_url, Buffer.from("hello"), begin.headers);
      assert.equal(put.status, 200, put.body);
      assert.equal(put.etag, '"5d41402abc4b2a76b9719d911017c592"');
      assert.equal(await p.code("files/upload_begin", { path: "../outside", scope: "user" }), -32027);
    },
  ],
  [
    "files/upload_complete",
    async (p) => {
      const begin = await p.ok("files/upload_begin", {
        path: "probe/done.txt",
        scope: "user",
        content_type: "text/plain",
      });
      assert.equal(await p.code("files/upload_complete", { path: "probe/done.txt", scope: "user" }), -32022);
      const put = await p.put(begin.put_url, Buffer.from("done"), begin.headers);
      assert.equal(
        await p.code("files/upload_complete", { path: "probe/done.txt", scope: "user", etag: '"wrong"' }),
        -32023,
      );
      const done = await p.ok("files/upload_complete", {
        path: "probe/done.txt",
        scope: "user",
        etag: put.etag,
        size_bytes: 4,
      });
      assert.equal(done.size_bytes, 4);
      assert.equal(p.host.files.read("user", "probe/done.txt")!.toString(), "done");
    },
  ],
  [
    "files/download_url",
    async (p) => {
      p.host.files.write("tool", "probe/dl.txt", Buffer.from("download me"), "text/plain", Date.now());
      const link = await p.ok("files/download_url", {
        path: "probe/dl.txt",
        scope: "tool",
        expires_in: 60,
        ttl_seconds: 60,
      });
      assert.equal(await (await fetch(link.url)).text(), "download me");
      assert.equal(await p.code("files/download_url", { path: "probe/none.txt", scope: "tool" }), -32022);
    },
  ],
  [
    "files/list",
    async (p) => {
      p.host.files.write("app", "probe/listed.bin", Buffer.from([1, 2, 3]), "application/octet-stream", Date.now());
      assert.deepEqual(
        (await p.ok("files/list", { scope: "app", prefix: "probe/" })).items.map((i: Any) => [i.path, i.size_bytes]),
        [["probe/listed.bin", 3]],
      );
      assert.equal(await p.code("files/list", { scope: "app", limit: 5000 }), -32028);
    },
  ],
  [
    "files/delete",
    async (p) => {
      p.host.files.write("app", "probe/del.txt", Buffer.from("x"), "text/plain", Date.now());
      assert.deepEqual(await p.ok("files/delete", { path: "probe/del.txt", scope: "app" }), { deleted: true });
      assert.equal(p.host.files.get("app", "probe/del.txt"), undefined);
      assert.equal(await p.code("files/delete", { path: "/abs", scope: "app" }), -32027);
    },
  ],
  [
    "host/uploadFile inline",
    async (p) => {
      const up = await p.ok("host/uploadFile", {
        mode: "inline",
        filename: "note.txt",
        mime_type: "text/plain",
        content_b64: Buffer.from("inline!").toString("base64"),
        purpose: "user_artifact",
      });
      assert.equal(up.size_bytes, 7);
      assert.equal(await (await fetch(up.download_url)).text(), "inline!");
      assert.equal(
        await p.code("host/uploadFile", {
          mode: "inline",
          filename: "x",
          mime_type: "text/plain",
          content_b64: "AAAA",
          purpose: "image-edit-input",
        }),
        -32206,
      );
    },
  ],
  [
    "host/uploadFile negotiate and confirm",
    async (p) => {
      const r = await p.negotiate(Buffer.alloc(2048, 42));
      assert.equal(r.early_confirm_code, -32212, "confirm before the PUT: nothing there yet");
      assert.equal(r.put_status, 200);
      assert.equal(r.confirmed.size_bytes, 2048);
      assert.equal(Buffer.from(await (await fetch(r.confirmed.download_url)).arrayBuffer()).length, 2048);
      const other = await p.call("host/uploadFile", { mode: "confirm", r2_key: r.r2_key });
      assert.ok(
        !other.ok && other.code === -32203 && other.message === "r2_key does not belong to this invoke",
        JSON.stringify(other),
      );
    },
  ],
  [
    "image/generate",
    async (p) => {
      const g = await p.ok("image/generate", { prompt: "a lighthouse", size: "256x256" });
      assert.deepEqual([g.images[0].mimeType, g.images[0].width, g.model], ["image/png", 256, "executa-mock-image"]);
      assert.equal(await p.code("image/generate", { prompt: "x", n: 9 }), -32106);
    },
  ],
  [
    "image/edit",
    async (p) => {
      const g = await p.ok("image/generate", { prompt: "to edit", size: "128x128" });
      assert.equal((await p.ok("image/edit", { prompt: "banner", image_url: g.images[0].url })).images[0].width, 128);
      assert.equal(
        await p.code("image/edit", {
          prompt: "banner",
          image_url: g.images[0].url.replace(/get\/\w+$/, `get/${"2".repeat(32)}`),
        }),
        -32314,
      );
    },
  ],
  [
    "embeddings/create",
    async (p) => {
      const e = await p.ok("embeddings/create", { input: ["one", "two"] });
      assert.deepEqual(
        e.data.map((d: Any) => d.embedding.length),
        [1536, 1536],
      );
      assert.equal(await p.code("embeddings/create", { input: [] }), -32504);
    },
  ],
  [
    "a refused grant",
    async (p) => {
      p.host.refuse("llm.image");
      try {
        assert.equal(await p.code("image/generate", { prompt: "x" }), -32101);
      } finally {
        p.host.refuse("llm.image", false);
      }
    },
  ],
];

for (const lang of ["ts", "python", "go"] as const) {
  describe(`mock host methods through the ${lang} runtime`, NEEDS[lang], () => {
    let prepared: PreparedLaunch;
    let session: Session;
    const host = new MockHost();
    const invoke = async (tool: string, args: Record<string, unknown>): Promise<Any> => {
      const r = await session.invoke(tool, args, { timeoutMs: 60_000 });
      const result = r.frame.result as { success?: boolean; data?: Any; error?: unknown } | undefined;
      assert.equal(result?.success, true, JSON.stringify(r.frame).slice(0, 600) + session.stderr.slice(-600));
      return result!.data!;
    };
    const probe: Probe = {
      host,
      call: (method, params = {}) => invoke("host_call", { method, params }) as Promise<Reply>,
      async ok(method, params) {
        const r = await probe.call(method, params);
        assert.ok(r.ok, `${method} failed: ${JSON.stringify(r)}`);
        return r.result;
      },
      async code(method, params) {
        const r = await probe.call(method, params);
        assert.ok(!r.ok, `${method} succeeded: ${JSON.stringify(r).slice(0, 300)}`);
        return r.code;
      },
      put: (url, body, headers = {}) =>
        invoke("http_put", { url, body_b64: body.toString("base64"), headers }) as never,
      negotiate: (body) => invoke("negotiate_upload", { body_b64: body.toString("base64") }),
    };

    before(async () => {
      prepared = await prepareLaunch(PROBES[lang]());
      session = new Session(prepared.launch, { mockHost: host });
      await session.initialize(PROTOCOL_V2);
      assert.equal(session.negotiatedV2, true, session.stderr);
      await session.describe(30_000);
    });
    after(async () => {
      await session?.dispose();
      prepared?.cleanup();
      await host.close();
    });

    for (const [name, scenario] of SCENARIOS) it(name, () => scenario(probe));

    it("routed every request to its invoke and answered every one", () => {
      assert.ok(host.log.length > 60);
      assert.ok(
        host.log.every((r) => r.state === "answered" && r.routedTo !== undefined && r.routedTo === r.invokeId),
        JSON.stringify(host.log.find((r) => r.routedTo !== r.invokeId)),
      );
    });
  });
}
