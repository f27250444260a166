/** The --mock loader: both formats, first match wins, the fallback row, unused rules, malformed lines. */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ExecutaError } from "../../../src/common/errors.js";
import { loadRules, MockHost, MockRuleSet, parseRules } from "../../../src/host/index.js";
import { call, error, result, user } from "./harness.js";

const lines = (...rows: unknown[]) => rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n");
const text = (a: unknown) => (a as { content: { text: string } }).content.text;

/** The official fixtures of the public examples, as anna-app reads them. */
const IMAGE_FIXTURE = lines(
  {
    ns: "image",
    method: "generate",
    match: { promptIncludes: "Mars" },
    result: {
      images: [{ url: "https://mock.cdn/mars-poster.png", mimeType: "image/png", width: 1024, height: 1024 }],
      model: "mock-dalle-3",
    },
  },
  {
    ns: "image",
    method: "generate",
    result: { images: [{ url: "https://mock.cdn/default-poster.png", mimeType: "image/png" }], model: "mock-dalle-3" },
  },
  {
    ns: "image",
    method: "edit",
    result: { images: [{ url: "https://mock.cdn/restyled-poster.png", mimeType: "image/png" }], model: "mock-edit-v1" },
  },
  {
    ns: "host",
    method: "uploadFile",
    match: { modeEquals: "inline" },
    result: {
      download_url: "https://mock.cdn/uploaded/poster.png",
      r2_key: "exec-uploads/dev/mock-user/image-poster/inv-1/image/poster.png",
      size_bytes: 2048,
      expires_at: "2030-01-01T00:00:00Z",
    },
  },
);

describe("mock rules", () => {
  it("reads the official format: ns/method mapped to the wire, promptIncludes, modeEquals, first match then the fallback", async () => {
    const host = new MockHost({ rules: parseRules(IMAGE_FIXTURE, "image.jsonl") });
    const url = (a: unknown) => (a as { images: { url: string }[] }).images[0]!.url;
    assert.equal(
      url(result(await call(host, "image/generate", { prompt: "A poster of Mars" }))),
      "https://mock.cdn/mars-poster.png",
    );
    assert.equal(
      url(result(await call(host, "image/generate", { prompt: "A poster of Venus" }))),
      "https://mock.cdn/default-poster.png",
    );
    assert.equal(
      url(result(await call(host, "image/edit", { prompt: "banner", image_url: "https://mock.cdn/mars-poster.png" }))),
      "https://mock.cdn/restyled-poster.png",
    );
    const inline = result<{ r2_key: string }>(
      await call(host, "host/uploadFile", {
        mode: "inline",
        filename: "p.png",
        mime_type: "image/png",
        content_b64: "AAAA",
      }),
    );
    assert.equal(inline.r2_key, "exec-uploads/dev/mock-user/image-poster/inv-1/image/poster.png");
    assert.equal(host.log.at(-1)!.rule, "image.jsonl:4");
    // modeEquals "inline" does not answer negotiate: the mock host does.
    const offer = result<{ put_url: string }>(
      await call(host, "host/uploadFile", { mode: "negotiate", filename: "p.bin", mime_type: "a/b", size_bytes: 3 }),
    );
    assert.match(offer.put_url, /^http:\/\/127\.0\.0\.1:/);
    assert.deepEqual(host.unusedRules(), []);
    await host.close();
  });

  it("the fallback row answers only when no row with a match does, wherever it stands", async () => {
    const rules = parseRules(
      lines(
        { ns: "llm", method: "complete", result: { content: { type: "text", text: "fallback" } } },
        {
          ns: "llm",
          method: "complete",
          match: { promptIncludes: "weather" },
          result: { content: { type: "text", text: "sunny" } },
        },
        {
          ns: "llm",
          method: "complete",
          match: { contentIncludes: "weather" },
          result: { content: { type: "text", text: "never: the row above wins" } },
        },
      ),
      "llm.jsonl",
    );
    const host = new MockHost({ rules });
    assert.equal(text(result(await call(host, "sampling/createMessage", user("the weather today?")))), "sunny");
    assert.equal(text(result(await call(host, "agent/complete", user("something else")))), "fallback");
    assert.deepEqual(
      host.unusedRules().map((u) => u.where),
      ["llm.jsonl:3"],
    );
  });

  it("reads our own format: method, partial match of params, result or error; rules answer methods the host lacks", async () => {
    const rules = parseRules(
      lines(
        "// comments and blank lines are skipped",
        "",
        { method: "storage/get", match: { key: "flaky" }, error: { code: -32029, message: "UPSTREAM: try again" } },
        { method: "storage/get", match: { key: "$any", scope: "user" }, result: { value: "ruled", exists: true } },
        { method: "vendor/ping", result: { pong: true } },
      ),
      "own.jsonl",
    );
    const host = new MockHost({ rules });
    assert.equal(error(await call(host, "storage/get", { key: "flaky", scope: "tool" })).code, -32029);
    assert.deepEqual(result(await call(host, "storage/get", { key: "x", scope: "user" })), {
      value: "ruled",
      exists: true,
    });
    assert.deepEqual(result(await call(host, "storage/get", { key: "x", scope: "tool" })), {
      value: null,
      exists: false,
    });
    assert.deepEqual(result(await call(host, "vendor/ping")), { pong: true });
    // Validation and routing come first: a rule never answers a malformed request.
    assert.equal(error(await call(host, "storage/get", { scope: "user" })).code, -32028);
  });

  it("reports every row that matched nothing the plugin asked for, with why", async () => {
    const rules = parseRules(
      lines(
        { ns: "llm", method: "embed", result: { object: "list", data: [] } },
        { ns: "tools", method: "invoke", match: { tool_id: "tool-x", method: "embed" }, result: { success: true } },
        { method: "sampling/createMessage", match: { maxTokens: 7 }, result: {} },
      ),
      "unused.jsonl",
    );
    const host = new MockHost({ rules });
    result(await call(host, "sampling/createMessage", user("x")));
    const unused = host.unusedRules();
    assert.deepEqual(
      unused.map((u) => u.where),
      ["unused.jsonl:1", "unused.jsonl:2", "unused.jsonl:3"],
    );
    assert.match(unused[0]!.why, /no embeddings\/create request/);
    assert.match(unused[1]!.why, /tools\.invoke rows stand in for the plugin itself/);
    assert.equal(unused[2]!.label, 'sampling/createMessage {"maxTokens":7}');
  });

  it("counts a rule used by any host made from the same options (executa test opens many sessions)", async () => {
    const rules = parseRules(
      lines({ ns: "llm", method: "complete", result: { content: { type: "text", text: "r" } } }),
      "shared.jsonl",
    );
    const options = { rules };
    assert.equal(new MockHost(options).unusedRules().length, 1);
    result(await call(new MockHost(options), "agent/complete", user("x")));
    assert.deepEqual(new MockHost(options).unusedRules(), []);
  });

  it("turns session.run events into a buffered run that opens with run_meta", async () => {
    const rules = parseRules(
      lines(
        {
          ns: "agent",
          method: "session.create",
          result: { app_session_uuid: "aps_demo_mock_0001", expires_in: 600, submode: "auto", granted_tools: [] },
        },
        {
          ns: "agent",
          method: "session.run",
          events: [
            { payload: { event: "token", text: "12 " } },
            { payload: { event: "token", text: "= 12" } },
            { payload: { event: "complete" } },
          ],
        },
        { ns: "agent", method: "session.delete", result: { deleted: true } },
      ),
      "agent.jsonl",
    );
    const host = new MockHost({ rules });
    const created = result<{ app_session_uuid: string }>(await call(host, "agent/session.create", { kind: "agent" }));
    assert.equal(created.app_session_uuid, "aps_demo_mock_0001");
    const run = result<{ frames: { event: string; text?: string; warnings?: { code: string }[] }[] }>(
      await call(host, "agent/session.run", { app_session_uuid: "aps_demo_mock_0001", content: "12?" }),
    );
    assert.deepEqual(
      run.frames.map((f) => f.event),
      ["run_meta", "token", "token", "complete"],
    );
    assert.equal(run.frames[0]!.warnings![0]!.code, "NO_TOOLS_AVAILABLE");
    // The ruled session is a real one: history sees the run.
    assert.deepEqual(result(await call(host, "agent/session.history", { app_session_uuid: "aps_demo_mock_0001" })), {
      messages: [
        { role: "user", content: "12?" },
        { role: "assistant", content: "12 = 12" },
      ],
    });
  });

  it("merges files in order: earlier files win", async () => {
    const a = parseRules(
      lines({ method: "agent/complete", result: { content: { type: "text", text: "a" } } }),
      "a.jsonl",
    );
    const b = parseRules(
      lines({ method: "agent/complete", result: { content: { type: "text", text: "b" } } }),
      "b.jsonl",
    );
    assert.equal(MockRuleSet.merge(undefined), undefined);
    const host = new MockHost({ rules: MockRuleSet.merge(a, undefined, b)! });
    assert.equal(text(result(await call(host, "agent/complete", user("x")))), "a");
  });

  it("rejects a malformed line with its file and line number", () => {
    const bad: [string, RegExp][] = [
      ["{not json", /f\.jsonl:2: not JSON/],
      ["[1, 2]", /f\.jsonl:2: a rule must be a JSON object/],
      [JSON.stringify({ result: {} }), /a rule needs "method"/],
      [JSON.stringify({ method: "storage/get" }), /exactly one of "result", "error" or "events" \(found none\)/],
      [JSON.stringify({ method: "storage/get", result: {}, error: { code: 1, message: "x" } }), /found result, error/],
      [JSON.stringify({ method: "storage get", result: {} }), /must be a wire method/],
      [JSON.stringify({ method: "storage/get", match: "k", result: {} }), /"match" must be an object/],
      [JSON.stringify({ method: "storage/get", error: { code: "x" } }), /"error" must be \{"code"/],
      [
        JSON.stringify({ ns: "llm", method: "chat", result: {} }),
        /unknown ns\/method "llm\.chat"; known: llm\.complete/,
      ],
      [
        JSON.stringify({ ns: "image", method: "generate", match: { promptContains: "x" }, result: {} }),
        /unknown match key "promptContains"/,
      ],
      [
        JSON.stringify({ ns: "image", method: "generate", match: { promptIncludes: 5 }, result: {} }),
        /match\.promptIncludes must be a string/,
      ],
      [
        JSON.stringify({ ns: "image", method: "generate", match: { tool_id: "x" }, result: {} }),
        /applies to tools\.invoke rows only/,
      ],
      [JSON.stringify({ ns: "image", method: "generate", events: [] }), /"events" answers agent session\.run only/],
      [JSON.stringify({ ns: "agent", method: "session.run", events: [1] }), /"events" must be a list of objects/],
    ];
    for (const [line, message] of bad) {
      assert.throws(
        () => parseRules(`{"method":"agent/complete","result":{}}\n${line}`, "f.jsonl"),
        (e: unknown) => e instanceof ExecutaError && message.test(e.message) && /one rule per line/.test(e.hint ?? ""),
        line,
      );
    }
  });

  it("loads a file from disk, and says clearly when it cannot", () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-rules-"));
    const file = join(dir, "rules.jsonl");
    writeFileSync(file, IMAGE_FIXTURE + "\n");
    assert.equal(loadRules(file).rules.length, 4);
    assert.throws(() => loadRules(join(dir, "missing.jsonl")), /cannot read the rules file .*missing\.jsonl/);
  });
});

describe("--sampling", () => {
  it("takes echo, a canned text, rules:FILE or a .jsonl path, and refuses a rules file that is not there", async () => {
    const { samplingFlag } = await import("../../../src/host/index.js");
    assert.deepEqual(samplingFlag("echo"), { sampling: { kind: "echo" } });
    assert.deepEqual(samplingFlag("Sure thing."), { sampling: { kind: "canned", text: "Sure thing." } });
    assert.match((samplingFlag(undefined).sampling as { text: string }).text, /canned reply/);
    const file = join(mkdtempSync(join(tmpdir(), "executa-sampling-")), "s.jsonl");
    writeFileSync(file, '{"method":"sampling/createMessage","result":{}}\n');
    assert.equal(samplingFlag(`rules:${file}`).rules!.rules.length, 1);
    assert.equal(samplingFlag(file).rules!.rules.length, 1);
    assert.throws(() => samplingFlag("missing.jsonl"), /cannot read the rules file missing\.jsonl/);
  });
});
