/**
 * A reverse request nested 100,000 deep is answered, and it leaves nothing behind that breaks
 * the inspector later: the mock host logs it cut to a bounded depth, and the trace export still
 * answers with JSON. A describe nested as deep neither takes the inspector down nor its export.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { startInspect } from "../../src/workbench/index.js";
import { PLUGINS } from "../host/helpers.js";
import { rawRequest } from "./inspect-helpers.js";

const deepPlugin = {
  command: process.execPath,
  args: [join(PLUGINS, "node", "deep-reverse.mjs")],
  cwd: PLUGINS,
  source: "the test",
};

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    deepest = Math.max(deepest, d);
    if (v && typeof v === "object") for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return deepest;
}

test("a reverse request nested 100,000 deep is answered, logged to a bounded depth, and /api/export/trace still works", async () => {
  const running = await startInspect({ launch: deepPlugin, mockHost: {}, port: 0 });
  try {
    await running.started;
    const auth = { "X-Executa-Token": running.server.token, "Content-Type": "application/json" };
    const port = running.server.port;
    const invoke = await rawRequest(port, {
      method: "POST",
      path: "/api/invoke",
      headers: auth,
      body: JSON.stringify({ tool: "deep" }),
    });
    assert.equal(invoke.status, 200, invoke.body.slice(0, 300));
    const log = running.inspector.workbench.mockHost.log;
    assert.equal(log.length, 1);
    assert.ok(depthOf(log[0]) < 40, `the logged request is ${depthOf(log[0])} deep`);
    for (let i = 0; i < 2; i++) {
      const trace = await rawRequest(port, { path: "/api/export/trace", headers: auth });
      assert.equal(trace.status, 200, trace.body.slice(0, 300));
      const exported = JSON.parse(trace.body) as { reverse_requests: { method: string }[] };
      assert.equal(exported.reverse_requests[0]?.method, "sampling/createMessage");
    }
  } finally {
    await running.close();
  }
});

test("a describe nested 100,000 deep is shown cut, and the state and the trace export still answer", async () => {
  const running = await startInspect({ launch: { ...deepPlugin, env: { DEEP_DESCRIBE: "1" } }, mockHost: {}, port: 0 });
  try {
    await running.started;
    const auth = { "X-Executa-Token": running.server.token };
    for (const path of ["/api/state", "/api/export/trace"]) {
      const r = await rawRequest(running.server.port, { path, headers: auth });
      assert.equal(r.status, 200, `${path}: ${r.body.slice(0, 300)}`);
      assert.match(r.body, /nested deeper than 64, left out/, path);
    }
  } finally {
    await running.close();
  }
});
