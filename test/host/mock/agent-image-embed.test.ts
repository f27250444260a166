/** agent/session.* lifecycle, image/generate and image/edit, embeddings/create. */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { MockHost } from "../../../src/host/index.js";
import { call, error, fakeClock, result } from "./harness.js";

type Session = {
  app_session_uuid: string;
  expires_in: number;
  agent_submode: string;
  granted_tools: string[];
  inherit_host_tools: boolean;
  thread_id: string;
  expires_at: string;
  max_lifetime_at: string;
  idle_ttl_seconds: number;
  session_expires_in: number;
};
type Run = {
  run_id: string;
  stream_id: string;
  frames: { event: string; text?: string; cancelled?: boolean; run_id?: string; warnings?: { code: string }[] }[];
  final: { text?: string } | null;
};
type Images = {
  images: { url: string; mimeType: string; width: number; height: number }[];
  model: string;
  quota_used: { images_today: number; images_quota: number };
};

const hosts: MockHost[] = [];
const newHost = (...args: ConstructorParameters<typeof MockHost>) => {
  const host = new MockHost(...args);
  hosts.push(host);
  return host;
};
after(() => Promise.all(hosts.map((h) => h.close())));

describe("agent/session.*", () => {
  it("creates a session with the lifecycle fields, runs it (run_meta first, NO_TOOLS_AVAILABLE), keeps history", async () => {
    const clock = fakeClock();
    const host = newHost({ sampling: { kind: "echo" }, clock: clock.now });
    const s = result<Session>(
      await call(host, "agent/session.create", {
        kind: "agent",
        agent_submode: "auto",
        label: "research",
        ttl_seconds: 600,
      }),
    );
    assert.match(s.app_session_uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(s.expires_at, new Date(clock.now() + 600_000).toISOString());
    assert.equal(s.max_lifetime_at, new Date(clock.now() + 86_400_000).toISOString());
    assert.deepEqual(
      [s.expires_in, s.idle_ttl_seconds, s.session_expires_in, s.agent_submode, s.inherit_host_tools],
      [600, 600, 600, "auto", false],
    );
    assert.deepEqual(s.granted_tools, []);
    const run = result<Run>(
      await call(host, "agent/session.run", { app_session_uuid: s.app_session_uuid, content: "two words" }),
    );
    assert.deepEqual(
      run.frames.map((f) => f.event),
      ["run_meta", "token", "token", "final", "complete"],
    );
    assert.equal(run.frames[0]!.run_id, run.run_id);
    assert.equal(run.frames[0]!.warnings![0]!.code, "NO_TOOLS_AVAILABLE");
    assert.equal(run.final!.text, "two words");
    const mine = result<Run>(
      await call(host, "agent/session.run", {
        app_session_uuid: s.app_session_uuid,
        content: "again",
        run_id: "my-run",
      }),
    );
    assert.equal(mine.run_id, "my-run");
    const history = result<{ messages: unknown[] }>(
      await call(host, "agent/session.history", { app_session_uuid: s.app_session_uuid }),
    );
    assert.equal(history.messages.length, 4);
  });

  it("gives the same ids for the same sequence of requests from the same seed (a recording's replay)", async () => {
    const ids = async () => {
      const host = newHost({ seed: "replay" });
      const s = result<Session>(await call(host, "agent/session.create", {}));
      return [
        s.app_session_uuid,
        result<Run>(await call(host, "agent/session.run", { app_session_uuid: s.app_session_uuid, content: "x" }))
          .run_id,
      ];
    };
    assert.deepEqual(await ids(), await ids());
  });

  it("slides the idle window on use and refresh, caps it at the lifetime, and expires", async () => {
    const clock = fakeClock();
    const host = newHost({ clock: clock.now });
    const s = result<Session>(await call(host, "agent/session.create", { ttl_seconds: 60 }));
    clock.advance(50_000);
    const refreshed = result<Session>(
      await call(host, "agent/session.refresh", { app_session_uuid: s.app_session_uuid, ttl_seconds: 120 }),
    );
    assert.equal(refreshed.expires_at, new Date(clock.now() + 120_000).toISOString());
    assert.equal(refreshed.idle_ttl_seconds, 120);
    assert.equal(refreshed.session_expires_in, 120);
    clock.advance(121_000);
    const expired = error(
      await call(host, "agent/session.run", { app_session_uuid: s.app_session_uuid, content: "x" }),
    );
    assert.equal(expired.code, -32042);
    assert.equal(expired.data?.errorCode, "APP_SESSION_EXPIRED");
    assert.equal(result<{ sessions: unknown[] }>(await call(host, "agent/session.list", {})).sessions.length, 0);
    assert.equal(
      result<{ sessions: unknown[] }>(await call(host, "agent/session.list", { include_expired: true })).sessions
        .length,
      1,
    );
    // The hard lifetime caps every refresh.
    const long = result<Session>(await call(host, "agent/session.create", { ttl_seconds: 86_400 }));
    clock.advance(86_000_000);
    const capped = result<Session>(
      await call(host, "agent/session.refresh", { app_session_uuid: long.app_session_uuid, ttl_seconds: 86_400 }),
    );
    assert.equal(capped.expires_at, long.max_lifetime_at);
  });

  it("lists live sessions with their fields, within the limit", async () => {
    const host = newHost();
    for (let i = 0; i < 3; i++) result(await call(host, "agent/session.create", { label: `s${i}` }));
    const listed = result<{ sessions: Record<string, unknown>[] }>(
      await call(host, "agent/session.list", { limit: 2 }),
    );
    assert.equal(listed.sessions.length, 2);
    assert.deepEqual(Object.keys(listed.sessions[0]!).sort(), [
      "app_session_uuid",
      "created_at",
      "expires_at",
      "fixed_client_id",
      "idle_ttl_seconds",
      "kind",
      "label",
      "last_active_at",
      "max_lifetime_at",
      "submode",
    ]);
    assert.match(error(await call(host, "agent/session.list", { limit: 101 })).message, /limit must be at most 100/);
  });

  it("deletes idempotently; a deleted or unknown session is SESSION_NOT_FOUND", async () => {
    const host = newHost();
    const s = result<Session>(await call(host, "agent/session.create", {}));
    assert.deepEqual(result(await call(host, "agent/session.delete", { app_session_uuid: s.app_session_uuid })), {
      deleted: true,
    });
    assert.deepEqual(result(await call(host, "agent/session.delete", { app_session_uuid: s.app_session_uuid })), {
      deleted: true,
    });
    for (const method of [
      "agent/session.run",
      "agent/session.history",
      "agent/session.refresh",
      "agent/session.cancel",
    ]) {
      const e = error(await call(host, method, { app_session_uuid: s.app_session_uuid, content: "x", run_id: "r" }));
      assert.equal(e.code, -32042, method);
      assert.equal(e.data?.errorCode, "SESSION_NOT_FOUND");
    }
  });

  it("validates create and run with INVALID_REQUEST", async () => {
    const host = newHost();
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ["agent/session.create", { kind: "chat" }, /kind must be "agent"/],
      ["agent/session.create", { agent_submode: "manual" }, /agent_submode must be one of "auto", "fixed"/],
      ["agent/session.create", { agent_submode: "fixed" }, /needs fixed_client_id/],
      ["agent/session.create", { system_prompt: "x".repeat(4001) }, /at most 4000 are allowed/],
      ["agent/session.create", { ttl_seconds: 0 }, /ttl_seconds must be at least 1/],
      ["agent/session.run", {}, /app_session_uuid is required/],
    ];
    for (const [method, params, message] of bad) {
      const e = error(await call(host, method, params));
      assert.equal(e.code, -32043, JSON.stringify(params));
      assert.match(e.message, message);
    }
    const s = result<Session>(
      await call(host, "agent/session.create", { agent_submode: "fixed", fixed_client_id: "client-1" }),
    );
    assert.equal(s.agent_submode, "fixed");
    assert.match(
      error(await call(host, "agent/session.run", { app_session_uuid: s.app_session_uuid })).message,
      /content is required/,
    );
  });

  it("cancels a run that is still waiting for its answer; a finished run is not cancelled", async () => {
    let release: (text: string) => void = () => undefined;
    const host = newHost({
      sampling: { kind: "manual", answer: () => new Promise((resolve) => (release = (text) => resolve({ text }))) },
    });
    const s = result<Session>(await call(host, "agent/session.create", {}));
    const running = call(host, "agent/session.run", {
      app_session_uuid: s.app_session_uuid,
      content: "slow",
      run_id: "r1",
    });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      result(await call(host, "agent/session.cancel", { app_session_uuid: s.app_session_uuid, run_id: "r1" })),
      { cancelled: true, run_id: "r1" },
    );
    const run = result<Run>(await running);
    assert.deepEqual(
      run.frames.map((f) => f.event),
      ["run_meta", "final", "complete"],
    );
    assert.equal(run.frames[1]!.cancelled, true);
    release("too late");
    assert.deepEqual(
      result(await call(host, "agent/session.cancel", { app_session_uuid: s.app_session_uuid, run_id: "r1" })),
      { cancelled: false, run_id: "r1" },
    );
    assert.deepEqual(
      result(await call(host, "agent/session.cancel", { app_session_uuid: s.app_session_uuid, run_id: "unknown" })),
      { cancelled: false, run_id: "unknown" },
    );
  });

  it("keeps a run within 4096 frames", async () => {
    const host = newHost({ sampling: { kind: "echo" } });
    const s = result<Session>(await call(host, "agent/session.create", {}));
    const run = result<Run>(
      await call(host, "agent/session.run", { app_session_uuid: s.app_session_uuid, content: "w ".repeat(10_000) }),
    );
    assert.ok(run.frames.length <= 4096, String(run.frames.length));
    assert.equal(
      run.frames
        .filter((f) => f.event === "token")
        .map((f) => f.text)
        .join(""),
      "w ".repeat(10_000),
    );
  });
});

describe("image/*", () => {
  it("generates real PNGs of the requested size, the same for the same request, with the quota", async () => {
    const host = newHost();
    const a = result<Images>(await call(host, "image/generate", { prompt: "a red fox", n: 2, size: "256x128" }));
    assert.equal(a.images.length, 2);
    assert.equal(a.model, "executa-mock-image");
    assert.deepEqual(a.quota_used, { images_today: 2, images_quota: 50 });
    const png = Buffer.from(await (await fetch(a.images[0]!.url)).arrayBuffer());
    assert.equal(png.subarray(1, 4).toString(), "PNG");
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [256, 128]);
    assert.notEqual(a.images[0]!.url, a.images[1]!.url);
    const b = result<Images>(await call(host, "image/generate", { prompt: "a red fox", n: 2, size: "256x128" }));
    assert.equal(b.images[0]!.url, a.images[0]!.url);
    assert.equal(error(await call(host, "image/generate", { prompt: "x", n: 5 })).code, -32106);
    for (const params of [
      {},
      { prompt: "x", size: "huge" },
      { prompt: "x", size: "10x10" },
      { prompt: "x", n: 0 },
      { prompt: "x", reference_image_urls: ["ftp://x"] },
    ]) {
      assert.equal(error(await call(host, "image/generate", params)).code, -32104, JSON.stringify(params));
    }
    const quota = newHost();
    for (let i = 0; i < 12; i++) result(await call(quota, "image/generate", { prompt: `p${i}`, n: 4, size: "64x64" }));
    assert.equal(error(await call(quota, "image/generate", { prompt: "one more", n: 4, size: "64x64" })).code, -32102);
  });

  it("edits an image it made (same size by default), checks the mask and the references", async () => {
    const host = newHost();
    const made = result<Images>(await call(host, "image/generate", { prompt: "base", size: "512x256" }));
    const edited = result<Images>(
      await call(host, "image/edit", { prompt: "add a banner", image_url: made.images[0]!.url }),
    );
    assert.deepEqual([edited.images[0]!.width, edited.images[0]!.height], [512, 256]);
    assert.notEqual(edited.images[0]!.url, made.images[0]!.url);
    const mask = result<Images>(await call(host, "image/generate", { prompt: "mask", size: "64x64" }));
    assert.equal(
      error(
        await call(host, "image/edit", { prompt: "x", image_url: made.images[0]!.url, mask_url: mask.images[0]!.url }),
      ).code,
      -32312,
    );
    assert.equal(
      error(
        await call(host, "image/edit", {
          prompt: "x",
          image_url: made.images[0]!.url,
          mask_url: "data:image/png;base64,AAAA",
        }),
      ).code,
      -32312,
    );
    const foreign = made.images[0]!.url.replace(/get\/[0-9a-f]+$/, `get/${"1".repeat(32)}`);
    assert.equal(error(await call(host, "image/edit", { prompt: "x", image_url: foreign })).code, -32314);
    assert.equal(
      error(await call(host, "image/generate", { prompt: "x", reference_image_urls: ["data:text/plain;base64,AAAA"] }))
        .code,
      -32314,
    );
    result(await call(host, "image/edit", { prompt: "x", image_url: "https://cdn.example.com/remote.png" }));
    assert.equal(error(await call(host, "image/edit", { prompt: "x" })).code, -32104);
  });
});

describe("embeddings/create", () => {
  it("answers deterministic unit vectors, closer for texts that share words", async () => {
    const host = newHost();
    type Embedded = {
      object: string;
      model: string;
      data: { object: string; index: number; embedding: number[] }[];
      usage: { prompt_tokens: number; total_tokens: number };
      _meta: { dimensions: number };
    };
    const r = result<Embedded>(
      await call(host, "embeddings/create", {
        input: ["the cat sat", "the cat sat on the mat", "quantum chromodynamics"],
      }),
    );
    assert.equal(r.object, "list");
    assert.equal(r.model, "anna-managed-v1");
    assert.deepEqual(
      r.data.map((d) => [d.object, d.index, d.embedding.length]),
      [
        ["embedding", 0, 1536],
        ["embedding", 1, 1536],
        ["embedding", 2, 1536],
      ],
    );
    const [a, b, c] = r.data.map((d) => d.embedding) as [number[], number[], number[]];
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    assert.ok(Math.abs(dot(a, a) - 1) < 1e-3);
    assert.ok(dot(a, b) > dot(a, c) + 0.3, `${dot(a, b)} vs ${dot(a, c)}`);
    const again = result<Embedded>(await call(newHost(), "embeddings/create", { input: "the cat sat" }));
    assert.deepEqual(again.data[0]!.embedding, a);
    assert.equal(r._meta.dimensions, 1536);
    assert.equal(r.usage.total_tokens, r.usage.prompt_tokens);
  });

  it("refuses empty input, a foreign model alias, and an input over the token limit", async () => {
    const host = newHost();
    for (const params of [
      {},
      { input: [] },
      { input: [""] },
      { input: [1] },
      { input: ["x"], model: "text-embedding-3-large" },
    ]) {
      assert.equal(error(await call(host, "embeddings/create", params)).code, -32504, JSON.stringify(params));
    }
    assert.equal(error(await call(host, "embeddings/create", { input: ["x".repeat(40_000)] })).code, -32506);
  });
});
