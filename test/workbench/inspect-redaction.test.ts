/**
 * A plugin that hands its credential back spelled as Python's json.dumps and Go's encoding/json
 * spell it, and logs it split across two stderr chunks: the value is in no trace entry, answer
 * or export the inspect server hands out.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { startInspect } from "../../src/workbench/index.js";
import { PLUGINS } from "../host/helpers.js";
import { rawRequest } from "./inspect-helpers.js";

const SECRET = "sk-\u00e9<cl\u00e9>&-7781";
const SPELLINGS = [SECRET, "sk-\\u00e9<cl\\u00e9>&-7781", "sk-\u00e9\\u003ccl\u00e9\\u003e\\u0026-7781", "7781"];

/** Every string in the text, decoded (JSON inside JSON too), or the text itself when it is not JSON. */
function decoded(text: string): string[] {
  const out = [text];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      out.push(v);
      try {
        walk(JSON.parse(v));
      } catch {
        // not JSON inside
      }
    } else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) out.push(k), walk(x);
  };
  for (const line of text.split("\n")) {
    try {
      walk(JSON.parse(line));
    } catch {
      // not a JSON line
    }
  }
  return out;
}

test("a credential spelled by Python or Go, or split across stderr chunks, reaches no trace, answer or export", async () => {
  const running = await startInspect({
    launch: {
      command: process.execPath,
      args: [join(PLUGINS, "node", "leaks-credential.mjs")],
      cwd: PLUGINS,
      source: "the test",
    },
    mockHost: {},
    port: 0,
    credentials: { API_KEY: SECRET },
  });
  try {
    await running.started;
    const auth = { "X-Executa-Token": running.server.token, "Content-Type": "application/json" };
    const port = running.server.port;
    const invoke = await rawRequest(port, {
      method: "POST",
      path: "/api/invoke",
      headers: auth,
      body: JSON.stringify({ tool: "leak" }),
    });
    assert.equal(invoke.status, 200, invoke.body);
    assert.match(invoke.body, /\[credential API_KEY\]/);
    await new Promise((r) => setTimeout(r, 400));
    const outputs = {
      invoke: invoke.body,
      state: (await rawRequest(port, { path: "/api/state", headers: auth })).body,
      trace: (await rawRequest(port, { path: "/api/export/trace", headers: auth })).body,
      fixture: (
        await rawRequest(port, {
          method: "POST",
          path: "/api/export/fixture",
          headers: auth,
          body: JSON.stringify({ include: [0, 1, 2, 3] }),
        })
      ).body,
    };
    assert.match(outputs.state, /stderr[^\n]*\[credential API_KEY\]/, "the stderr line is there, redacted");
    for (const [what, text] of Object.entries(outputs)) {
      for (const s of decoded(text))
        for (const spelled of SPELLINGS)
          assert.ok(!s.includes(spelled), `${what} holds ${JSON.stringify(spelled)}: ${s.slice(0, 400)}`);
    }
  } finally {
    await running.close();
  }
});
