/**
 * Protocol tests: spawn the plugin and speak to it over stdio, one test (or more) per line of
 * the runtime contract and per kind of bad input. Most run the test plugin
 * (test/fixtures/test-plugin.ts: this project's runtime and tools plus test-only tools).
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, test } from "node:test";
import { MAIN, MANIFEST, Plugin, sleep, withPlugin, type Frame } from "./helpers/plugin.js";

const MiB = 1024 * 1024;
const health = (id: unknown) => ({ jsonrpc: "2.0", id, method: "health" });
const errorOf = (frame: Frame) => ({ id: frame.id, code: frame.error?.code, message: frame.error?.message });

describe("framing", () => {
  test("surrounding white space and a trailing \\r are trimmed; blank lines are skipped", () =>
    withPlugin(async (p) => {
      p.send(`\n   \n\t${JSON.stringify(health(1))}  \r\n\r\n`);
      assert.equal((await p.response(1)).result.status, "ready");
      assert.equal((await p.request("health")).result.status, "ready");
      assert.equal(p.frames.length, 2);
    }));

  test("a 15 MiB frame is accepted and answered", () =>
    withPlugin(async (p) => {
      const text = "a".repeat(15 * MiB);
      const answer = await p.invoke("length", { text });
      assert.deepEqual(answer.result.data, text.length);
    }));

  test("a frame of exactly 16 MiB is accepted", () =>
    withPlugin(async (p) => {
      const head = '{"jsonrpc":"2.0","id":1,"method":"health","params":{"pad":"';
      const tail = '"}}';
      p.send(head + "x".repeat(16 * MiB - head.length - tail.length) + tail + "\n");
      assert.equal((await p.response(1, 10_000)).result.status, "ready");
    }));

  test("a frame over 16 MiB is answered -32600 with id null, and the plugin keeps running", () =>
    withPlugin(async (p) => {
      p.send(`{"jsonrpc":"2.0","id":1,"method":"health","params":{"pad":"${"x".repeat(16 * MiB)}"}}\n`);
      const answer = await p.next(() => true, 10_000);
      assert.deepEqual(errorOf(answer), { id: null, code: -32600, message: "Frame exceeds 16 MiB" });
      assert.equal((await p.request("health")).result.status, "ready");
    }));

  test("stdout carries only frames: console.log and process.stdout.write in a tool go to stderr", () =>
    withPlugin(async (p) => {
      const answer = await p.invoke("chatty", {});
      assert.deepEqual(answer.result.data, { ok: true });
      for (const line of ["console.log", "console.info", "console.debug", "process.stdout.write"]) {
        assert.match(p.stderr, new RegExp(`chatty: ${line.replace(".", "\\.")}`));
      }
      assert.deepEqual(p.strayLines, []);
    }));
});

describe("what each frame gets", () => {
  test("not valid UTF-8: -32700 with id null", () =>
    withPlugin(async (p) => {
      p.send(Buffer.from([0xff, 0xfe, 0x7b, 0x7d, 0x0a]));
      p.send(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"health","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]));
      for (let i = 0; i < 2; i++) {
        const answer = await p.next();
        assert.equal(answer.id, null);
        assert.equal(answer.error.code, -32700);
        assert.match(answer.error.message, /^Parse error: /);
      }
    }));

  test("not JSON: -32700 with id null", () =>
    withPlugin(async (p) => {
      p.send("this is not json\n{\"jsonrpc\":\n");
      for (let i = 0; i < 2; i++) {
        const answer = await p.next();
        assert.equal(answer.id, null);
        assert.equal(answer.error.code, -32700);
        assert.match(answer.error.message, /^Parse error: /);
      }
    }));

  test("JSON that is not an object (batch, string, number, null): -32600 with id null", () =>
    withPlugin(async (p) => {
      p.send(`[${JSON.stringify(health(1))}]\n"health"\n42\nnull\ntrue\n`);
      for (let i = 0; i < 5; i++) {
        const answer = await p.next();
        assert.equal(answer.id, null);
        assert.equal(answer.error.code, -32600);
        assert.match(answer.error.message, /^Invalid Request: /);
      }
      assert.equal(p.pending().length, 0);
    }));

  test("jsonrpc missing or not \"2.0\": -32600 with the frame's id", () =>
    withPlugin(async (p) => {
      p.send({ id: 1, method: "health" });
      p.send({ jsonrpc: "1.0", id: "two", method: "health" });
      assert.equal((await p.response(1)).error.code, -32600);
      assert.equal((await p.response("two")).error.code, -32600);
    }));

  test("a method that is not a string: -32600", () =>
    withPlugin(async (p) => {
      p.send({ jsonrpc: "2.0", id: 1, method: 42 });
      assert.equal((await p.response(1)).error.code, -32600);
    }));

  test("an id that is not a string, a number or null: -32600 with id null", () =>
    withPlugin(async (p) => {
      p.send({ jsonrpc: "2.0", id: { x: 1 }, method: "health" });
      p.send({ jsonrpc: "2.0", id: true, method: "health" });
      for (let i = 0; i < 2; i++) assert.deepEqual(errorOf(await p.next()).id, null);
      assert.equal(p.frames.every((f) => f.error?.code === -32600), true);
    }));

  test("an object without method and without result/error: -32600", () =>
    withPlugin(async (p) => {
      p.send({ jsonrpc: "2.0", id: 7 });
      p.send({ jsonrpc: "2.0" });
      assert.equal((await p.response(7)).error.code, -32600);
      assert.deepEqual(errorOf(await p.next()), { id: null, code: -32600, message: "Invalid Request: no 'method'" });
    }));

  test("notifications (no id) are never answered, whatever the method", () =>
    withPlugin(async (p) => {
      p.send({ jsonrpc: "2.0", method: "health" });
      p.send({ jsonrpc: "2.0", method: "no/such/method" });
      p.send({ jsonrpc: "2.0", method: "invoke", params: { tool: "nothing" } });
      p.send({ jsonrpc: "1.0", method: 5 });
      p.send(health("after"));
      assert.equal((await p.next()).id, "after");
      await sleep(100);
      assert.equal(p.frames.length, 1);
    }));

  test("a response to an unknown id is logged on stderr, never answered", () =>
    withPlugin(async (p) => {
      p.reply("no-such-request", { ok: true });
      p.send({ jsonrpc: "2.0", id: 99, error: { code: -1, message: "x" } });
      assert.equal((await p.request("health")).result.status, "ready");
      assert.equal(p.frames.length, 1);
      assert.match(p.stderr, /unknown request id "no-such-request"/);
    }));

  test("an unknown method: -32601 Method not found", () =>
    withPlugin(async (p) => {
      assert.deepEqual(errorOf(await p.request("tools/list", {}, 3)), { id: 3, code: -32601, message: "Method not found: tools/list" });
    }));

  test("id 0 (and null, and a string) are answered like any other id", () =>
    withPlugin(async (p) => {
      assert.equal((await p.request("health", undefined, 0)).id, 0);
      assert.equal((await p.request("health", undefined, null)).id, null);
      assert.equal((await p.request("health", undefined, "s")).id, "s");
    }));
});

describe("methods", () => {
  test("initialize answers 2.0 for 2.x, else 1.1, with serverInfo and client_capabilities", () =>
    withPlugin(async (p) => {
      const expected = { "2.0": "2.0", "2.1": "2.0", "1.1": "1.1", "1.0": "1.1", "3.0": "1.1", "": "1.1" };
      for (const [asked, answered] of Object.entries(expected)) {
        assert.equal((await p.initialize(asked)).protocolVersion, answered, `asked ${asked}`);
      }
      const missing = await p.request("initialize", {});
      assert.deepEqual(missing.result, {
        protocolVersion: "1.1",
        serverInfo: { name: "Test Plugin", version: "0.1.0" },
        capabilities: {},
        client_capabilities: { sampling: {}, storage: { kv: true, files: true }, upload: {} },
      });
      assert.equal((await p.request("initialize")).result.protocolVersion, "1.1");
    }));

  test("describe is manifest.json exactly (key order kept), and loads no tool module", () =>
    withPlugin(
      async (p) => {
        const answer = await p.request("describe");
        assert.equal(JSON.stringify(answer.result), JSON.stringify(JSON.parse(readFileSync(MANIFEST, "utf8"))));
      },
      { entry: MAIN },
    ));

  test("describe does not load tool modules; the first invoke does", () =>
    withPlugin(async (p) => {
      const answer = await p.request("describe");
      assert.ok(answer.result.tools.some((t: Frame) => t.name === "slow"));
      assert.doesNotMatch(p.stderr, /test-tools module loaded/);
      await p.invoke("nothing", {});
      assert.match(p.stderr, /test-tools module loaded/);
    }));

  test("health: ready, with the number of tools and the invokes in flight", () =>
    withPlugin(async (p) => {
      const tools = (await p.request("describe")).result.tools.length;
      const slow = p.invoke("slow", { ms: 300 });
      await sleep(100);
      assert.deepEqual((await p.request("health")).result, { status: "ready", message: "", details: { tools, in_flight: 1 } });
      await slow;
      assert.equal((await p.request("health")).result.details.in_flight, 0);
    }));

  test("shutdown is answered {ok: true}; in-flight invokes finish, then exit 0", async () => {
    const p = new Plugin();
    const slow = p.invoke("slow", { ms: 300 });
    await sleep(50);
    assert.deepEqual((await p.request("shutdown")).result, { ok: true });
    assert.equal((await slow).result.success, true);
    assert.deepEqual(await p.exited, { code: 0, signal: null });
  });
});

describe("invoke", () => {
  test("params not an object, or no string tool: -32602 Missing 'tool' in params", () =>
    withPlugin(async (p) => {
      for (const params of [undefined, [], "text_stats", {}, { tool: 5 }]) {
        const answer = await p.request("invoke", params);
        assert.deepEqual([answer.error.code, answer.error.message], [-32602, "Missing 'tool' in params"]);
      }
    }));

  test("an unknown tool: -32601 with the available tools in manifest order", () =>
    withPlugin(async (p) => {
      const names = (await p.request("describe")).result.tools.map((t: Frame) => t.name);
      const answer = await p.invoke("nope", {});
      assert.deepEqual(answer.error, { code: -32601, message: "Unknown tool: nope", data: { available_tools: names } });
      assert.deepEqual(names.slice(0, 3), ["text_stats", "sign_message", "summarize"]);
    }));

  test("arguments present and not an object: -32602", () =>
    withPlugin(async (p) => {
      for (const args of [[], "x", 3, null]) {
        const answer = await p.request("invoke", { tool: "nothing", arguments: args });
        assert.deepEqual([answer.error.code, answer.error.message], [-32602, "'arguments' must be an object"]);
      }
      assert.equal((await p.request("invoke", { tool: "nothing" })).result.success, true);
    }));

  test("arguments that break the manifest: -32602 with one entry per problem", () =>
    withPlugin(async (p) => {
      const answer = await p.invoke("echo_args", { i: "1", n: "x", b: 1, o: [], a: [1, "2", 3.5], tags: ["x", 2], e: "c", extra: 1 });
      assert.equal(answer.error.code, -32602);
      assert.equal(answer.error.message, "Invalid arguments for tool 'echo_args'");
      assert.deepEqual(answer.error.data.errors, [
        { parameter: "s", message: "required" },
        { parameter: "i", message: "expected integer, got string" },
        { parameter: "n", message: "expected number, got string" },
        { parameter: "b", message: "expected boolean, got number" },
        { parameter: "o", message: "expected object, got array" },
        { parameter: "a", message: "item 1: expected integer, got string" },
        { parameter: "a", message: "item 2: expected integer, got number" },
        { parameter: "tags", message: "item 1: expected string, got number" },
        { parameter: "e", message: "must be one of: a, b" },
        { parameter: "extra", message: "unknown parameter" },
      ]);
      const fraction = await p.invoke("echo_args", { s: "x", i: 1.5 });
      assert.deepEqual(fraction.error.data.errors, [{ parameter: "i", message: "expected integer, got number" }]);
    }));

  test("the real tools' arguments are checked too (text_stats wrong types)", () =>
    withPlugin(async (p) => {
      const answer = await p.invoke("text_stats", { text: 1, letter_case: "title" });
      assert.deepEqual(answer.error.data.errors, [
        { parameter: "text", message: "expected string, got number" },
        { parameter: "letter_case", message: "must be one of: lower, upper, preserve" },
      ]);
    }));

  test("integers may be written 2.0; null means not given; missing optionals get the manifest default", () =>
    withPlugin(async (p) => {
      p.send('{"jsonrpc":"2.0","id":"int","method":"invoke","params":{"tool":"echo_args","arguments":{"s":"x","i":2.0}}}\n');
      assert.deepEqual((await p.response("int")).result.data, { s: "x", i: 2, b: false });
      const answer = await p.invoke("echo_args", { s: "x", i: null, n: null, a: [1, 2], tags: ["t"], o: { k: 1 }, e: "b" });
      assert.deepEqual(answer.result.data, { s: "x", i: 7, b: false, o: { k: 1 }, a: [1, 2], tags: ["t"], e: "b" });
      const stats = await p.invoke("text_stats", { text: "b a b" });
      assert.deepEqual(stats.result.data.top, [
        { word: "b", count: 2 },
        { word: "a", count: 1 },
      ]);
    }));

  test("a handler's return value: {success: true, data, duration_ms}; no value is data null", () =>
    withPlugin(async (p) => {
      const answer = await p.invoke("slow", { ms: 50 });
      assert.equal(answer.result.success, true);
      assert.deepEqual(answer.result.data, { slept: 50 });
      assert.ok(Number.isInteger(answer.result.duration_ms) && answer.result.duration_ms >= 40);
      const none = await p.invoke("nothing", {});
      assert.equal(none.result.data, null);
      assert.ok("data" in none.result);
    }));

  test("a ToolError: {success: false, error: its message, duration_ms}", () =>
    withPlugin(async (p) => {
      const answer = await p.invoke("fail", { kind: "tool" });
      assert.equal(answer.result.success, false);
      assert.equal(answer.result.error, "it failed as asked");
      assert.equal(typeof answer.result.duration_ms, "number");
      const stats = await p.invoke("text_stats", { text: "x", top: -1 });
      assert.equal(stats.result.success, false);
      assert.match(stats.result.error, /top must be 0 or more/);
    }));

  test("an uncaught HostError: {success: false, error: \"<method> failed: [<code>] <message>\"}", () =>
    withPlugin(async (p) => {
      await p.initialize("2.0");
      const answer = p.invoke("raw_request", { method: "sampling/createMessage", params: { messages: [] } });
      const request = await p.reverseRequest("sampling/createMessage");
      p.replyError(request.id, -32009, "The user said no");
      assert.equal((await answer).result.success, false);
      assert.equal((await answer).result.error, "sampling/createMessage failed: [-32009] The user said no");
    }));

  test("any other exception: -32603, with the stack trace on stderr only", () =>
    withPlugin(async (p) => {
      const answer = await p.invoke("fail", { kind: "crash" });
      assert.deepEqual(answer.error, { code: -32603, message: "Tool 'fail' failed unexpectedly; see the plugin's stderr" });
      assert.match(p.stderr, /Error: boom\n\s+at /);
      assert.doesNotMatch(JSON.stringify(p.frames), /boom/);
    }));

  test("positional bindings get the arguments in order, then the context", () =>
    withPlugin(async (p) => {
      assert.equal((await p.invoke("add", { a: 2, b: 3 })).result.data, 5);
    }));

  test("concurrent invokes run concurrently", () =>
    withPlugin(async (p) => {
      const started = Date.now();
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => p.invoke("slow", { ms: 300 })));
      assert.ok(answers.every((a) => a.result.success));
      assert.ok(Date.now() - started < 1_200, `took ${Date.now() - started} ms`);
    }));
});

describe("tool context", () => {
  test("invokeId and deadlineMs from context; legacy params.invoke_id; defaults", () =>
    withPlugin(async (p) => {
      const given = await p.invoke("context_info", {}, { context: { invoke_id: "inv-1", deadline_ms: 1234567 } });
      assert.deepEqual(given.result.data, { tool: "context_info", invokeId: "inv-1", deadlineMs: 1234567, secret: null });
      const legacy = await p.invoke("context_info", {}, { invoke_id: "legacy-1" });
      assert.equal(legacy.result.data.invokeId, "legacy-1");
      const before = Date.now();
      const none = await p.invoke("context_info", {});
      assert.equal(none.result.data.invokeId, "");
      // context_info declares timeout 5 (seconds)
      assert.ok(Math.abs(none.result.data.deadlineMs - (before + 5_000)) < 1_000);
    }));

  test("credential(): context.credentials first, then the environment", () =>
    withPlugin(
      async (p) => {
        assert.equal((await p.invoke("context_info", {})).result.data.secret, "from-env");
        const given = await p.invoke("context_info", {}, { context: { credentials: { TEST_SECRET: "from-context" } } });
        assert.equal(given.result.data.secret, "from-context");
      },
      { env: { TEST_SECRET: "from-env" } },
    ));

  test("sign_message reads SIGNING_SECRET the same way, and fails clearly without it", () =>
    withPlugin(
      async (p) => {
        const hmac = (key: string) => createHmac("sha256", key).update("héllo").digest("hex");
        const fromEnv = await p.invoke("sign_message", { message: "héllo" });
        assert.deepEqual(fromEnv.result.data, { algorithm: "HMAC-SHA256", signature: hmac("env-key") });
        const fromContext = await p.invoke("sign_message", { message: "héllo" }, { context: { credentials: { SIGNING_SECRET: "ctx-key" } } });
        assert.equal(fromContext.result.data.signature, hmac("ctx-key"));
      },
      { env: { SIGNING_SECRET: "env-key" } },
    ));

  test("sign_message without a secret: success false with the configuration hint", () =>
    withPlugin(
      async (p) => {
        const answer = await p.invoke("sign_message", { message: "x" });
        assert.equal(answer.result.success, false);
        assert.match(answer.result.error, /^SIGNING_SECRET is not configured\./);
      },
      { env: { SIGNING_SECRET: "" } },
    ));
});

describe("reverse requests", () => {
  test("summarize sends sampling/createMessage stamped with the invoke id, and returns the summary", () =>
    withPlugin(async (p) => {
      await p.initialize("2.0");
      const answer = p.invoke("summarize", { text: "Some text.", max_words: 10 }, { context: { invoke_id: "inv-s" } });
      const request = await p.reverseRequest();
      assert.equal(request.jsonrpc, "2.0");
      assert.match(request.id, /^[0-9a-f]{32}$/);
      assert.deepEqual(request.params, {
        messages: [{ role: "user", content: { type: "text", text: "Summarize the following text in at most 10 words:\n\nSome text." } }],
        maxTokens: 40,
        metadata: { tool: "summarize", executa_invoke_id: "inv-s" },
        context: { invoke_id: "inv-s" },
      });
      p.reply(request.id, { role: "assistant", content: { type: "text", text: "Short." }, model: "m-1", stopReason: "endTurn" });
      assert.deepEqual((await answer).result.data, { summary: "Short.", model: "m-1" });
    }));

  test("a v1 host (no 2.0 initialize): summarize fails locally without writing a frame", () =>
    withPlugin(async (p) => {
      await p.initialize("1.1");
      const answer = await p.invoke("summarize", { text: "x" });
      assert.equal(answer.result.success, false);
      assert.equal(
        answer.result.error,
        "summarize needs an Anna host that speaks Executa protocol 2.0 with sampling; this host did not negotiate it.",
      );
      const storage = await p.invoke("kv", { key: "k" });
      assert.match(storage.result.error, /^storage\/set failed: \[-32021\] /);
      assert.equal(p.frames.filter((f) => "method" in f).length, 0);
    }));

  test("a host refusal of summarize: success false with the code and the hint", () =>
    withPlugin(async (p) => {
      await p.initialize("2.0");
      const answer = p.invoke("summarize", { text: "x" });
      p.replyError((await p.reverseRequest()).id, -32001, "sampling is not granted");
      assert.equal(
        (await answer).result.error,
        "The host refused the sampling request: [-32001] sampling is not granted Grant sampling to this plugin in Anna's settings.",
      );
    }));

  test("without the capability in the manifest the call fails locally (sampling -32008, storage -32021)", () =>
    withPlugin(
      async (p) => {
        await p.initialize("2.0");
        const sampling = await p.invoke("sample_echo", { prompt: "x" });
        assert.match(sampling.result.error, /^sampling\/createMessage failed: \[-32008\] .*llm\.sample/);
        const storage = await p.invoke("kv", { key: "k" });
        assert.match(storage.result.error, /^storage\/set failed: \[-32021\] .*aps\.kv/);
        assert.equal(p.frames.filter((f) => "method" in f).length, 0);
      },
      { env: { TEST_PLUGIN_CAPABILITIES: "[]" } },
    ));

  test("concurrent invokes, reverse requests answered out of order: each gets its own answer", () =>
    withPlugin(async (p) => {
      await p.initialize("2.0");
      const a = p.invoke("sample_echo", { prompt: "A" }, { context: { invoke_id: "inv-A" } });
      const b = p.invoke("sample_echo", { prompt: "B" }, { context: { invoke_id: "inv-B" } });
      const requests = [await p.reverseRequest(), await p.reverseRequest()];
      for (const r of requests) {
        const prompt = r.params.messages[0].content.text;
        assert.equal(r.params.context.invoke_id, `inv-${prompt}`);
        assert.equal(r.params.metadata.executa_invoke_id, `inv-${prompt}`);
      }
      assert.notEqual(requests[0]!.id, requests[1]!.id);
      for (const r of [...requests].reverse()) {
        p.reply(r.id, { content: { type: "text", text: `answer to ${r.params.messages[0].content.text}` }, model: "m" });
      }
      assert.deepEqual((await a).result.data, { text: "answer to A", invokeId: "inv-A" });
      assert.deepEqual((await b).result.data, { text: "answer to B", invokeId: "inv-B" });
    }));

  test("a reverse request times out from the invoke's deadline (-32005), and a late answer is dropped", () =>
    withPlugin(async (p) => {
      await p.initialize("2.0");
      const started = Date.now();
      const answer = p.invoke("sample_echo", { prompt: "x" }, { context: { invoke_id: "late", deadline_ms: Date.now() + 300 } });
      const request = await p.reverseRequest();
      const result = (await answer).result;
      assert.ok(Date.now() - started < 2_000);
      assert.equal(result.success, false);
      assert.match(result.error, /^sampling\/createMessage failed: \[-32005\] /);
      p.reply(request.id, { content: { type: "text", text: "too late" } });
      assert.equal((await p.request("health")).result.status, "ready");
      assert.match(p.stderr, /unknown request id/);
    }));

  test("storage helpers: storage/set and storage/get with scope tool", () =>
    withPlugin(async (p) => {
      await p.initialize("2.0");
      const answer = p.invoke("kv", { key: "k1" }, { context: { invoke_id: "inv-kv" } });
      const set = await p.reverseRequest("storage/set");
      assert.deepEqual(set.params, { key: "k1", value: { n: 1 }, scope: "tool", context: { invoke_id: "inv-kv" }, metadata: { executa_invoke_id: "inv-kv" } });
      p.reply(set.id, { etag: "e1", generation: 1, size_bytes: 7 });
      const get = await p.reverseRequest("storage/get");
      assert.deepEqual([get.params.key, get.params.scope], ["k1", "tool"]);
      p.reply(get.id, { value: { n: 1 }, etag: "e1", exists: true });
      assert.deepEqual((await answer).result.data, {
        set: { etag: "e1", generation: 1, size_bytes: 7 },
        got: { value: { n: 1 }, etag: "e1", exists: true },
      });
    }));
});

describe("large responses", () => {
  test("a response over 512 KiB goes by file transport: a 0600 executa-resp-<hex>.json file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-ft-"));
    try {
      await withPlugin(
        async (p) => {
          const answer = await p.invoke("huge", { bytes: 600 * 1024 });
          assert.deepEqual(Object.keys(answer), ["jsonrpc", "id", "__file_transport"]);
          const path: string = answer.__file_transport;
          assert.equal(dirname(path), dir);
          assert.match(basename(path), /^executa-resp-[0-9a-f]{32}\.json$/);
          assert.equal(statSync(path).mode & 0o777, 0o600);
          const full = JSON.parse(readFileSync(path, "utf8"));
          assert.deepEqual([full.jsonrpc, full.id, full.result.success, full.result.data.length], ["2.0", answer.id, true, 600 * 1024]);
          unlinkSync(path);
          const small = await p.invoke("huge", { bytes: 500 * 1024 });
          assert.equal(small.result.data.length, 500 * 1024);
        },
        { env: { TMPDIR: dir } },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("stopping", () => {
  test("stdin closed mid-invoke: the invoke is still answered, then exit 0", async () => {
    const p = new Plugin();
    const answer = p.invoke("slow", { ms: 300 });
    await sleep(50);
    p.closeStdin();
    assert.deepEqual((await answer).result.data, { slept: 300 });
    assert.deepEqual(await p.exited, { code: 0, signal: null });
  });

  test("SIGTERM during a slow tool: answered within the grace period, exit 0", async () => {
    const p = new Plugin();
    await p.request("health"); // started
    const answer = p.invoke("slow", { ms: 500 });
    await sleep(100);
    p.kill("SIGTERM");
    assert.deepEqual((await answer).result.data, { slept: 500 });
    assert.deepEqual(await p.exited, { code: 0, signal: null });
  });

  test("a tool slower than the 3 s grace period: exit 0 when the grace is over", async () => {
    const p = new Plugin();
    await p.request("health");
    const started = Date.now();
    void p.invoke("slow", { ms: 20_000 }).catch(() => {});
    await sleep(100);
    p.kill("SIGTERM");
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    const took = Date.now() - started;
    assert.ok(took >= 2_900 && took < 4_500, `took ${took} ms`);
  });

  test("a second SIGTERM exits at once", async () => {
    const p = new Plugin();
    await p.request("health");
    void p.invoke("slow", { ms: 20_000 }).catch(() => {});
    await sleep(100);
    p.kill("SIGTERM");
    await sleep(100);
    const started = Date.now();
    p.kill("SIGTERM");
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    assert.ok(Date.now() - started < 1_000);
  });

  test("stdin EOF with nothing in flight: exit 0 at once", async () => {
    const p = new Plugin({ entry: MAIN });
    await p.request("describe");
    p.closeStdin();
    assert.deepEqual(await p.exited, { code: 0, signal: null });
  });
});

describe("load", () => {
  test("a flood of 10,000 frames is all answered in a reasonable time", () =>
    withPlugin(async (p) => {
      const started = Date.now();
      const lines: string[] = [];
      for (let i = 0; i < 10_000; i++) {
        lines.push(
          JSON.stringify(
            i % 2 === 0
              ? health(i)
              : { jsonrpc: "2.0", id: i, method: "invoke", params: { tool: "text_stats", arguments: { text: `word ${i} word` } } },
          ),
        );
      }
      p.send(lines.join("\n") + "\n");
      await p.response(9_999, 20_000);
      while (p.frames.length < 10_000) await sleep(10);
      const ids = new Set(p.frames.map((f) => f.id));
      assert.equal(ids.size, 10_000);
      assert.ok(p.frames.every((f) => f.result && (f.result.status === "ready" || f.result.success === true)));
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    }));
});
