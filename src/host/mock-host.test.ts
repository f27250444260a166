import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { MockHost, samplingModeFrom, type ActiveInvoke, type ReverseContext } from "./mock-host.js";

const active = (...ids: string[]) => new Map<string, ActiveInvoke>(ids.map((id, i) => [id, { invokeId: id, tool: "t", requestId: i, deadlineMs: 0 }]));
const ctx = (ids: string[], caps: string[] | undefined = ["llm.sample", "aps.kv"], v2 = true): ReverseContext => ({ negotiatedV2: v2, hostCapabilities: caps, activeInvokes: active(...ids) });
const sample = (invokeId?: string) => ({
  jsonrpc: "2.0", id: "r1", method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: "hello there" } }], maxTokens: 10, ...(invokeId !== undefined && { context: { invoke_id: invokeId } }) },
});
const errorCode = (a: unknown) => ((a as { error?: { data?: { errorCode?: string } } }).error?.data?.errorCode);

describe("mock host", () => {
  it("routes by context.invoke_id, as the spec's table says", () => {
    const host = new MockHost();
    assert.ok("result" in host.handle(sample("a"), ctx(["a", "b"])));
    assert.equal(host.log.at(-1)!.routedTo, "a");
    assert.equal(errorCode(host.handle(sample("zz"), ctx(["a"]))), "UNKNOWN_INVOKE_CONTEXT");
    assert.ok("result" in host.handle(sample(), ctx(["a"])));
    assert.equal(host.log.at(-1)!.routedTo, "a");
    assert.equal(errorCode(host.handle(sample(), ctx(["a", "b"]))), "MISSING_INVOKE_CONTEXT");
    assert.equal((host.handle(sample(), ctx(["a", "b"])) as { error: { code: number } }).error.code, -32602);
  });

  it("enforces protocol 2.0 and the manifest's host_capabilities", () => {
    const host = new MockHost();
    assert.equal((host.handle(sample("a"), ctx(["a"], ["llm.sample"], false)) as { error: { code: number } }).error.code, -32008);
    assert.equal((host.handle(sample("a"), ctx(["a"], [])) as { error: { code: number } }).error.code, -32008);
    const set = { jsonrpc: "2.0", id: 2, method: "storage/set", params: { key: "k", value: 1, context: { invoke_id: "a" } } };
    assert.equal((host.handle(set, ctx(["a"], ["llm.sample"])) as { error: { code: number } }).error.code, -32021);
  });

  it("answers sampling canned, echo, or by rules", () => {
    assert.equal((new MockHost({ sampling: samplingModeFrom("echo") }).handle(sample("a"), ctx(["a"])) as { result: { content: { text: string } } }).result.content.text, "hello there");
    const file = join(mkdtempSync(join(tmpdir(), "rules-")), "rules.jsonl");
    writeFileSync(file, '{"method":"sampling/createMessage","match":{"maxTokens":10},"result":{"content":{"type":"text","text":"ruled"}}}\n');
    assert.deepEqual((new MockHost({ sampling: samplingModeFrom(`rules:${file}`) }).handle(sample("a"), ctx(["a"])) as { result: unknown }).result, { content: { type: "text", text: "ruled" } });
  });

  it("keeps storage in a folder across hosts with --storage", () => {
    const dir = mkdtempSync(join(tmpdir(), "store-"));
    const call = (host: MockHost, method: string, params: object) => host.handle({ jsonrpc: "2.0", id: 1, method, params: { ...params, context: { invoke_id: "a" } } }, ctx(["a"]));
    call(new MockHost({ storageDir: dir }), "storage/set", { key: "k", value: { n: 1 }, scope: "tool" });
    assert.deepEqual(call(new MockHost({ storageDir: dir }), "storage/get", { key: "k", scope: "tool" }), { result: { value: { n: 1 }, etag: (call(new MockHost({ storageDir: dir }), "storage/get", { key: "k", scope: "tool" }) as { result: { etag: string } }).result.etag, exists: true } });
    assert.deepEqual(call(new MockHost(), "storage/get", { key: "k", scope: "tool" }), { result: { value: null, exists: false } });
  });
});
