/** sampling/createMessage and agent/complete: validation, caps, structured output and the schema limits, text sources. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MockHost, MockRuleSet, parseRules, SCHEMA_LIMITS, type ManualRequest } from "../../../src/host/index.js";
import { call, error, result, user } from "./harness.js";

type Completion = {
  content: { type: string; text: string };
  model: string;
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  _meta: { responseFormat?: { type: string; structuredValid: boolean; downgraded: boolean } };
};

const CONTACT = {
  type: "object",
  properties: {
    name: { type: "string" },
    email: { type: "string", format: "email" },
    tags: { type: "array", items: { enum: ["a", "b"] }, minItems: 2 },
  },
  required: ["name", "email"],
  additionalProperties: false,
};
const schemaFormat = (schema: unknown, name = "contact") => ({
  responseFormat: { type: "json_schema", json_schema: { name, strict: true, schema } },
});

/** A schema nesting objects `levels` subschemas deep. */
function nested(levels: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: "string" };
  for (let i = 1; i < levels; i++) s = { type: "object", properties: { x: s } };
  return s;
}

describe("sampling/createMessage", () => {
  it("answers an MCP-shaped completion, canned by default, echo on request", async () => {
    const r = result<Completion>(await call(new MockHost(), "sampling/createMessage", user("hello there")));
    assert.equal(r.content.type, "text");
    assert.match(r.content.text, /canned reply/);
    assert.equal(r.stopReason, "endTurn");
    assert.equal(r.usage.totalTokens, r.usage.inputTokens + r.usage.outputTokens);
    const echo = new MockHost({ sampling: { kind: "echo" } });
    assert.equal(
      result<Completion>(await call(echo, "sampling/createMessage", user("hello there"))).content.text,
      "hello there",
    );
    assert.equal(result<Completion>(await call(echo, "agent/complete", user("again"))).content.text, "again");
  });

  it("validates the request with the sampling codes", async () => {
    const host = new MockHost();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ maxTokens: 10 }, /messages must be a non-empty list/],
      [{ messages: [], maxTokens: 10 }, /messages must be a non-empty list/],
      [{ messages: [{ role: "robot", content: { type: "text", text: "x" } }], maxTokens: 10 }, /role must be/],
      [{ messages: [{ role: "user", content: "x" }], maxTokens: 10 }, /not a bare string/],
      [{ ...user("x"), maxTokens: 0 }, /maxTokens must be at least 1/],
      [{ messages: user("x").messages }, /maxTokens is required/],
      [{ ...user("x"), temperature: 3 }, /temperature must be between 0 and 2/],
      [{ ...user("x"), includeContext: "thisServer" }, /only "none"/],
      [{ ...user("x"), modelPreferences: { costPriority: 2 } }, /costPriority must be a number from 0 to 1/],
      [{ ...user("x"), onUnsupported: "maybe" }, /onUnsupported must be one of/],
      [{ ...user("x"), responseFormat: { type: "yaml" } }, /responseFormat.type must be/],
    ];
    for (const [params, message] of bad) {
      const e = error(await call(host, "sampling/createMessage", params));
      assert.equal(e.code, -32004, JSON.stringify(params));
      assert.match(e.message, message);
    }
  });

  it("caps maxTokens at 8192 with a note, cuts a long text at maxTokens and at a stop sequence", async () => {
    const host = new MockHost({ sampling: { kind: "echo" } });
    result(await call(host, "sampling/createMessage", { ...user("x"), maxTokens: 9000 }));
    assert.deepEqual(host.log.at(-1)!.notes, ["maxTokens 9000 was capped at the host's 8192"]);
    const long = result<Completion>(
      await call(host, "sampling/createMessage", { ...user("word ".repeat(100)), maxTokens: 5 }),
    );
    assert.equal(long.stopReason, "maxTokens");
    assert.equal(long.content.text.length, 20);
    const stopped = result<Completion>(
      await call(host, "sampling/createMessage", { ...user("one two STOP three"), stopSequences: ["STOP"] }),
    );
    assert.equal(stopped.content.text, "one two ");
    assert.equal(stopped.stopReason, "stopSequence");
  });

  it("allows 8 sampling calls per invoke (agent/complete included), then MAX_CALLS_EXCEEDED", async () => {
    const host = new MockHost();
    for (let i = 0; i < 8; i++)
      result(await call(host, i % 2 ? "agent/complete" : "sampling/createMessage", user("x")));
    const e = error(await call(host, "sampling/createMessage", user("x")));
    assert.equal(e.code, -32006);
    result(await call(host, "sampling/createMessage", user("x"), { invoke: "b" }));
  });

  it("stops an invoke at 32 000 tokens with MAX_TOKENS_EXCEEDED", async () => {
    const rules = parseRules(
      JSON.stringify({
        method: "sampling/createMessage",
        result: { content: { type: "text", text: "big" }, usage: { totalTokens: 20_000 } },
      }),
      "big.jsonl",
    );
    const host = new MockHost({ rules });
    result(await call(host, "sampling/createMessage", user("x")));
    result(await call(host, "sampling/createMessage", user("x")));
    assert.equal(error(await call(host, "sampling/createMessage", user("x"))).code, -32007);
  });

  it("answers json_object with a JSON object, and json_schema with a document the schema accepts", async () => {
    const host = new MockHost();
    const obj = result<Completion>(
      await call(host, "sampling/createMessage", { ...user("x"), responseFormat: { type: "json_object" } }),
    );
    assert.deepEqual(JSON.parse(obj.content.text), { text: "This is a canned reply from the executa mock host." });
    assert.deepEqual(obj._meta.responseFormat, {
      type: "json_object",
      requested: "json_object",
      structuredValid: true,
      downgraded: false,
    });
    const doc = result<Completion>(
      await call(host, "sampling/createMessage", { ...user("x"), ...schemaFormat(CONTACT) }),
    );
    const parsed = JSON.parse(doc.content.text) as Record<string, unknown>;
    assert.equal(parsed.email, "mock@example.com");
    assert.deepEqual(parsed.tags, ["a", "a"]);
    assert.equal(doc._meta.responseFormat!.structuredValid, true);
    // $ref, anyOf, integer bounds, const: still a valid document.
    const tricky = {
      $defs: { n: { type: "integer", minimum: 3, multipleOf: 2 } },
      type: "object",
      properties: {
        n: { $ref: "#/$defs/n" },
        k: { const: "fixed" },
        u: { anyOf: [{ type: "boolean" }, { type: "null" }] },
      },
      required: ["n", "k", "u"],
    };
    const r = result<Completion>(
      await call(host, "sampling/createMessage", { ...user("x"), ...schemaFormat(tricky, "t") }),
    );
    assert.deepEqual(JSON.parse(r.content.text), { n: 4, k: "fixed", u: true });
    assert.equal(r._meta.responseFormat!.structuredValid, true);
  });

  it("says structuredValid false when the answer does not satisfy the schema", async () => {
    const rules = parseRules(
      JSON.stringify({
        method: "sampling/createMessage",
        result: { role: "assistant", content: { type: "text", text: '{"name": 5}' } },
      }),
      "r.jsonl",
    );
    const r = result<Completion>(
      await call(new MockHost({ rules }), "sampling/createMessage", { ...user("x"), ...schemaFormat(CONTACT) }),
    );
    assert.deepEqual(r._meta.responseFormat, {
      type: "json_schema",
      requested: "json_schema",
      structuredValid: false,
      downgraded: false,
    });
    const pattern = {
      type: "object",
      properties: { code: { type: "string", pattern: "^[0-9]{4}$" } },
      required: ["code"],
    };
    const p = result<Completion>(
      await call(new MockHost(), "sampling/createMessage", { ...user("x"), ...schemaFormat(pattern, "p") }),
    );
    assert.equal(
      p._meta.responseFormat!.structuredValid,
      false,
      "a pattern the mock cannot satisfy is reported, not hidden",
    );
  });

  it("enforces the schema limits: 32 KB, depth 8, 512 nodes, the name pattern, a valid schema", async () => {
    const host = new MockHost();
    const send = (schema: unknown, name?: string) =>
      call(host, "sampling/createMessage", { ...user("x"), ...schemaFormat(schema, name) });
    result(await send(nested(SCHEMA_LIMITS.maxDepth)));
    assert.match(error(await send(nested(SCHEMA_LIMITS.maxDepth + 1))).message, /deeper than 8 levels/);
    const wide = (n: number) => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "string" }])),
    });
    result(await send(wide(SCHEMA_LIMITS.maxNodes - 1)));
    assert.match(error(await send(wide(SCHEMA_LIMITS.maxNodes))).message, /more than 512 subschemas/);
    const big = { type: "object", description: "d".repeat(SCHEMA_LIMITS.maxBytes) };
    const e = error(await send(big));
    assert.equal(e.code, -32004);
    assert.match(e.message, /bytes serialised; the host accepts at most 32768/);
    for (const name of ["", "has space", "x".repeat(65), "ünï"])
      assert.match(error(await send(CONTACT, name)).message, /name must match/, name);
    result(await send(CONTACT, "A-z_09"));
    assert.match(error(await send({ type: "bogus" })).message, /not a valid JSON Schema/);
    assert.match(error(await send({ type: "string", pattern: "(" })).message, /not a valid JSON Schema/);
  });

  it("downgrades as onUnsupported allows, and answers -32010 otherwise", async () => {
    const objectOnly = new MockHost({ structuredOutput: "json_object" });
    const e = error(await call(objectOnly, "sampling/createMessage", { ...user("x"), ...schemaFormat(CONTACT) }));
    assert.equal(e.code, -32010);
    assert.match(e.message, /set onUnsupported to "json_object" or "text"/);
    const down = result<Completion>(
      await call(objectOnly, "sampling/createMessage", {
        ...user("x"),
        ...schemaFormat(CONTACT),
        onUnsupported: "json_object",
      }),
    );
    assert.deepEqual(down._meta.responseFormat, {
      type: "json_object",
      requested: "json_schema",
      structuredValid: false,
      downgraded: true,
    });
    assert.ok(JSON.parse(down.content.text));
    const textOnly = new MockHost({ structuredOutput: "text" });
    assert.equal(
      error(
        await call(textOnly, "sampling/createMessage", {
          ...user("x"),
          responseFormat: { type: "json_object" },
          onUnsupported: "json_object",
        }),
      ).code,
      -32010,
    );
    const plain = result<Completion>(
      await call(textOnly, "sampling/createMessage", { ...user("x"), ...schemaFormat(CONTACT), onUnsupported: "text" }),
    );
    assert.match(plain.content.text, /^This is a canned reply/);
    assert.deepEqual(plain._meta.responseFormat, {
      type: "text",
      requested: "json_schema",
      structuredValid: false,
      downgraded: true,
    });
  });

  it("waits for a person's answer in manual mode (text or a whole answer) and records it as manual", async () => {
    const asked: ManualRequest[] = [];
    let reply: (text: string) => void = () => undefined;
    const host = new MockHost({
      sampling: {
        kind: "manual",
        answer: (request) => {
          asked.push(request);
          return request.prompt.includes("refuse")
            ? Promise.resolve({ error: { code: -32009, message: "USER_DENIED" } })
            : new Promise((resolve) => (reply = (text) => resolve({ text })));
        },
      },
    });
    const pending = call(host, "sampling/createMessage", user("what is 2+2?"));
    await new Promise((r) => setImmediate(r));
    assert.equal(host.log.at(-1)!.state, "pending");
    assert.equal(asked[0]!.prompt, "what is 2+2?");
    // Other requests are not held up by the pending one.
    result(await call(host, "storage/get", { key: "k" }));
    reply("4");
    const r = result<Completion>(await pending);
    assert.equal(r.content.text, "4");
    assert.equal(host.log[0]!.answeredBy, "manual");
    assert.equal(error(await call(host, "sampling/createMessage", user("please refuse"))).code, -32009);
    host.sampling = { kind: "echo" };
    assert.equal(result<Completion>(await call(host, "sampling/createMessage", user("back"))).content.text, "back");
  });

  it("turns a failing manual answerer into -32603, never a rejected promise", async () => {
    const host = new MockHost({
      sampling: { kind: "manual", answer: () => Promise.reject(new Error("the page closed")) },
    });
    const e = error(await call(host, "sampling/createMessage", user("x")));
    assert.equal(e.code, -32603);
    assert.match(e.message, /the page closed/);
  });

  it("answers from rules first and keeps the rule's result", async () => {
    const rules = MockRuleSet.merge(
      parseRules(
        '{"method":"sampling/createMessage","match":{"maxTokens":100},"result":{"content":{"type":"text","text":"ruled"}}}',
        "r.jsonl",
      ),
    )!;
    const host = new MockHost({ rules });
    assert.deepEqual(result(await call(host, "sampling/createMessage", user("x"))), {
      content: { type: "text", text: "ruled" },
    });
    assert.equal(host.log.at(-1)!.answeredBy, "rule");
    assert.equal(host.log.at(-1)!.rule, "r.jsonl:1");
    assert.match(
      result<Completion>(await call(host, "sampling/createMessage", { ...user("x"), maxTokens: 5 })).content.text,
      /canned/,
    );
  });
});
