/**
 * The workbench's argument check is the runtimes' one: every validation vector that sends an
 * invoke of the test plugin's `echo` gets, from argumentProblems, the errors (or the success) the
 * vector expects of a runtime.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { argumentProblems } from "./arguments.js";
import type { Manifest } from "./manifest.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const manifest = JSON.parse(readFileSync(join(root, "test", "runtimes", "test-plugin.json"), "utf8")) as Manifest;
const echo = manifest.tools.find((t) => t.name === "echo")!;

interface Step {
  send?: { params?: { tool?: unknown; arguments?: unknown } };
  send_raw?: unknown[];
  expect?: { error?: { message?: string; data?: { errors?: unknown } }; result?: unknown };
}

/** The invoke a vector sends (a send_raw of one text line is parsed, as the runtime's decoder would). */
function sentArguments(step: Step): { tool: unknown; args: unknown } | undefined {
  let params = step.send?.params;
  if (step.send_raw && step.send_raw.length === 1 && typeof step.send_raw[0] === "string")
    params = (JSON.parse(step.send_raw[0]) as { params?: typeof params }).params;
  return params && { tool: params.tool, args: params.arguments ?? {} };
}

test("argumentProblems answers every echo validation vector as the runtimes do", () => {
  const lines = readFileSync(join(root, "docs", "runtime-vectors.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean);
  let compared = 0;
  for (const line of lines) {
    const vector = JSON.parse(line) as { id: string; row: string; steps: Step[] };
    // Lone surrogates are the decoder's business (it turns them into U+FFFD before validation).
    if (vector.row !== "validation" || vector.id.includes("surrogate")) continue;
    const [send, expect] = vector.steps;
    const sent = send && sentArguments(send);
    if (
      sent?.tool !== "echo" ||
      !expect?.expect ||
      typeof sent.args !== "object" ||
      sent.args === null ||
      Array.isArray(sent.args)
    )
      continue;
    const problems = argumentProblems(echo, sent.args as Record<string, unknown>);
    const error = expect.expect.error;
    if (error?.message === "Invalid arguments for tool 'echo'")
      assert.deepEqual(problems, error.data?.errors, vector.id);
    else if (expect.expect.result !== undefined) assert.deepEqual(problems, [], vector.id);
    else continue;
    compared++;
  }
  assert.ok(compared >= 25, `only ${compared} vectors compared`);
});
