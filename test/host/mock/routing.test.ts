/** Routing: protocol 2.0, the invoke_id table, host_capabilities, refused grants, unknown methods, the record. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MockHost, type ReverseRecord } from "../../../src/host/index.js";
import { call, ctx, error, result, user } from "./harness.js";

const sample = user("hello there");

describe("mock host routing", () => {
  it("routes by context.invoke_id, as the spec's table says", async () => {
    const host = new MockHost();
    result(await call(host, "sampling/createMessage", sample, { invoke: "a", ctx: ctx(["a", "b"]) }));
    assert.equal(host.log.at(-1)!.routedTo, "a");
    assert.equal(
      error(await call(host, "sampling/createMessage", sample, { invoke: "zz", ctx: ctx(["a"]) })).data?.errorCode,
      "UNKNOWN_INVOKE_CONTEXT",
    );
    result(await call(host, "sampling/createMessage", sample, { invoke: null, ctx: ctx(["a"]) }));
    assert.equal(host.log.at(-1)!.routedTo, "a");
    const missing = error(await call(host, "sampling/createMessage", sample, { invoke: null, ctx: ctx(["a", "b"]) }));
    assert.equal(missing.code, -32602);
    assert.equal(missing.data?.errorCode, "MISSING_INVOKE_CONTEXT");
    assert.equal(
      error(await call(host, "sampling/createMessage", sample, { invoke: null, ctx: ctx([]) })).data?.errorCode,
      "UNKNOWN_INVOKE_CONTEXT",
    );
  });

  it("answers a v1 session with each family's NOT_NEGOTIATED code", async () => {
    const host = new MockHost();
    const v1 = ctx(["a"], undefined, false);
    const expected: [string, number][] = [
      ["sampling/createMessage", -32008],
      ["agent/complete", -32008],
      ["agent/session.create", -32008],
      ["storage/get", -32021],
      ["files/list", -32021],
      ["host/uploadFile", -32210],
      ["image/generate", -32107],
      ["image/edit", -32107],
      ["embeddings/create", -32507],
      ["web/search", -32603],
      ["tools/whatever", -32601],
    ];
    for (const [method, code] of expected) {
      const e = error(await call(host, method, {}, { ctx: v1 }));
      assert.equal(e.code, code, method);
      assert.match(e.message, /protocol 2\.0 was not negotiated/);
    }
    assert.equal(error(await call(host, "storage/get", {}, { ctx: v1 })).data?.errorCode, "not_negotiated");
    const ended = error(await call(host, "sampling/createMessage", sample, { ctx: { ...v1, protocolVersion: "1.1" } }));
    assert.match(ended.message, /the initialize ended on "1\.1"/);
  });

  it("refuses a method whose capability the manifest lacks, with the family's code", async () => {
    const host = new MockHost();
    const none = ctx(["a"], ["llm.sample"]);
    const expected: [string, number][] = [
      ["agent/session.create", -32008],
      ["storage/set", -32021],
      ["files/upload_begin", -32021],
      ["host/uploadFile", -32201],
      ["image/generate", -32101],
      ["image/edit", -32101],
      ["embeddings/create", -32501],
    ];
    for (const [method, code] of expected)
      assert.equal(error(await call(host, method, {}, { ctx: none })).code, code, method);
    assert.equal(error(await call(host, "sampling/createMessage", sample, { ctx: ctx(["a"], []) })).code, -32008);
    // aps.scope.* declares storage too; llm.image does not unlock image/edit.
    result(await call(host, "storage/get", { key: "k", scope: "user" }, { ctx: ctx(["a"], ["aps.scope.user.read"]) }));
    const web = error(await call(host, "web/search", { query: "q" }, { ctx: ctx(["a"], ["web.fetch"]) }));
    assert.equal(web.code, -32603);
    assert.equal(web.data?.errorCode, "permission_denied");
    assert.match(web.message, /web\/search needs host_capabilities web\.search/);
    assert.equal(error(await call(host, "image/edit", {}, { ctx: ctx(["a"], ["llm.image"]) })).code, -32101);
  });

  it("simulates a user who refuses a grant: NOT_GRANTED for its methods only, and grants again", async () => {
    const host = new MockHost({ refuse: ["llm.image"] });
    const e = error(await call(host, "image/generate", { prompt: "x" }));
    assert.equal(e.code, -32101);
    assert.equal(e.data?.errorCode, "not_granted");
    result(await call(host, "sampling/createMessage", sample));
    host.refuse("llm.sample");
    assert.equal(error(await call(host, "sampling/createMessage", sample)).code, -32001);
    assert.equal(error(await call(host, "agent/complete", sample)).code, -32001);
    host.refuse("llm.agent.auto");
    assert.equal(error(await call(host, "agent/session.list", {})).code, -32041);
    host.refuse("llm.sample", false);
    result(await call(host, "sampling/createMessage", sample));
    assert.deepEqual(host.refusedCapabilities.sort(), ["llm.agent.auto", "llm.image"]);
    host.refuse("host.upload");
    assert.equal(error(await call(host, "host/uploadFile", {})).code, -32201);
    host.refuse("llm.embed");
    assert.equal(error(await call(host, "embeddings/create", {})).code, -32501);
  });

  it("refusing aps.scope.<scope>.write denies writes in that scope only", async () => {
    const host = new MockHost({ refuse: ["aps.scope.user.write"] });
    const e = error(await call(host, "storage/set", { key: "k", value: 1, scope: "user" }));
    assert.equal(e.code, -32021);
    assert.equal(e.data?.errorCode, "forbidden_scope");
    result(await call(host, "storage/get", { key: "k", scope: "user" }));
    result(await call(host, "files/list", { scope: "user" }));
    result(await call(host, "storage/set", { key: "k", value: 1, scope: "tool" }));
    result(await call(host, "storage/set", { key: "k", value: 1 }));
    host.refuse("aps.scope.app.read");
    assert.equal(
      error(await call(host, "storage/get", { key: "k" })).data?.errorCode,
      "forbidden_scope",
      "no scope is scope app, the host's default",
    );
    host.refuse("aps.kv");
    assert.equal(error(await call(host, "storage/get", { key: "k", scope: "tool" })).code, -32021);
    result(await call(host, "files/list", { scope: "tool" }));
  });

  it("answers an unknown method -32601, naming the current name of an old one", async () => {
    const host = new MockHost();
    assert.match(error(await call(host, "storage/kv_get", { key: "k" })).message, /old name of storage\/get/);
    assert.equal(error(await call(host, "nope/never", {})).code, -32601);
  });

  it("records each request as it arrives and as it is answered, for observers", async () => {
    const host = new MockHost();
    const seen: [string, ReverseRecord["state"], string][] = [];
    const stop = host.observe((event, r) => seen.push([event, r.state, r.method]));
    result(await call(host, "storage/set", { key: "k", value: "v".repeat(5000), scope: "tool" }));
    error(await call(host, "storage/get", {}));
    stop();
    result(await call(host, "storage/get", { key: "k", scope: "tool" }));
    assert.deepEqual(seen, [
      ["arrived", "pending", "storage/set"],
      ["answered", "answered", "storage/set"],
      ["arrived", "pending", "storage/get"],
      ["answered", "answered", "storage/get"],
    ]);
    const [set, bad] = host.log;
    assert.equal(set!.seq, 1);
    assert.equal(set!.answeredBy, "mock");
    assert.equal(set!.routedTo, "a");
    assert.ok(typeof set!.ms === "number");
    assert.match((set!.params as { value: string }).value, /… \(5000 characters\)$/);
    assert.equal(bad!.error!.code, -32028);
    assert.match(bad!.error!.message, /storage\/get: key is required/);
  });

  it("keeps at most maxRecords records", async () => {
    const host = new MockHost({ maxRecords: 3 });
    for (let i = 0; i < 5; i++) await call(host, "storage/get", { key: `k${i}` });
    assert.deepEqual(
      host.log.map((r) => r.seq),
      [3, 4, 5],
    );
    assert.equal(host.dropped, 2);
  });
});
