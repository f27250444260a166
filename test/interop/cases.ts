/**
 * Every tool of every template, as an app calls it through the platform (`tools.invoke`), with what
 * it must answer. A template tool without a case here fails the tier (templates.test.ts checks
 * the project's manifest lists exactly these tools).
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import type { HostCall } from "./bridge.js";
import { SCRIPTED_ANSWER, SCRIPTED_SUMMARY, SCRIPTED_TRIAGE, SCRIPTED_WARNING } from "./scripted-host.js";

export const SIGNING_SECRET = "interop-secret";

export interface Invoke {
  tool: string;
  args: Record<string, unknown>;
  /** Checks the tool's result; `hostCalls` are the host.* requests the bridge sent the test during this invoke. */
  check(result: Record<string, unknown>, hostCalls: HostCall[]): void;
}

const onlyHostCall = (calls: HostCall[], method: string): Record<string, unknown> => {
  const matching = calls.filter((c) => c.method === method);
  assert.equal(
    matching.length,
    1,
    `one ${method} request reached the host, got ${JSON.stringify(calls.map((c) => c.method))}`,
  );
  return matching[0]!.params;
};

const TEXT = "The cat saw the hat. The hat was red.";

export const TEMPLATE_CASES: Record<string, Invoke[]> = {
  minimal: [{ tool: "greet", args: { name: "Ada" }, check: (r) => assert.deepEqual(r, { message: "Hello, Ada!" }) }],
  examples: [
    {
      tool: "text_stats",
      args: { text: TEXT, top: 1 },
      check: (r) => {
        assert.equal(r.words, 9);
        assert.deepEqual(r.top, [{ word: "the", count: 3 }]);
      },
    },
    {
      tool: "sign_message",
      args: { message: "hello" },
      check: (r) =>
        assert.deepEqual(r, {
          algorithm: "HMAC-SHA256",
          signature: createHmac("sha256", SIGNING_SECRET).update("hello").digest("hex"),
        }),
    },
    {
      tool: "summarize",
      args: { text: TEXT, max_words: 5 },
      check: (r, calls) => {
        assert.deepEqual(r, { summary: SCRIPTED_SUMMARY, model: "scripted-model" });
        assert.match(JSON.stringify(onlyHostCall(calls, "host.llm.complete").messages), /The cat saw the hat/);
      },
    },
  ],
  services: [
    {
      tool: "triage",
      args: { message: "The export button crashes the app every time." },
      check: (r, calls) => {
        assert.deepEqual(r, { ...SCRIPTED_TRIAGE, escalate: true });
        const asked = onlyHostCall(calls, "host.llm.complete");
        assert.equal(
          (asked.responseFormat as { type?: string } | undefined)?.type,
          "json_schema",
          "triage asks for structured output",
        );
      },
    },
    // tally twice: the second call reads what the first wrote in the harness's store (templates.test.ts also reads it from the app's side)
    { tool: "tally", args: { name: "visits" }, check: (r) => assert.deepEqual(r, { name: "visits", count: 1 }) },
    { tool: "tally", args: { name: "visits", by: 2 }, check: (r) => assert.deepEqual(r, { name: "visits", count: 3 }) },
    {
      tool: "research",
      args: { question: "What is the answer?" },
      check: (r, calls) => {
        assert.deepEqual(r, { answer: SCRIPTED_ANSWER, warnings: [SCRIPTED_WARNING] });
        onlyHostCall(calls, "host.agent.session.create");
        assert.equal(onlyHostCall(calls, "host.agent.session.run").content, "What is the answer?");
      },
    },
  ],
};

/** The key tally's counter lives under, which the app reads back with `storage.get`. */
export const TALLY_KEY = "tally/visits";
export const TALLY_FINAL = 3;

/** Requests for anna-executa-test's wire-format check that need no host service: plain tools, and a refused call. */
export const WIRE_CALLS: Record<string, [string, Record<string, unknown>][]> = {
  minimal: [["invoke", { tool: "greet", arguments: { name: "Ada" } }]],
  examples: [["invoke", { tool: "text_stats", arguments: { text: TEXT } }]],
  services: [["invoke", { tool: "tally", arguments: {} }]],
};
