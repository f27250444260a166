import assert from "node:assert/strict";
import { it } from "node:test";
import { Credentials } from "./credentials.js";

it("replaces every credential value, raw or JSON-escaped, and masks credentials objects", () => {
  const c = new Credentials({ API_KEY: 'sk-"quoted"\\secret' });
  c.set("SIGNING_SECRET", "hunter2!");
  const frame = JSON.stringify({ params: { context: { credentials: c.forInvoke() } }, note: "echo hunter2!" });
  const redacted = c.redact(frame);
  assert.ok(!redacted.includes("hunter2") && !redacted.includes("quoted"), redacted);
  assert.match(redacted, /\[credential SIGNING_SECRET\]/);
  assert.deepEqual(c.redactValue({ a: ["x hunter2! y"], credentials: { ANY: "v" } }), {
    a: ["x [credential SIGNING_SECRET] y"],
    credentials: { ANY: "[credential ANY]" },
  });
  assert.deepEqual(c.names, ["API_KEY", "SIGNING_SECRET"]);
  c.set("SIGNING_SECRET", "");
  assert.deepEqual(c.names, ["API_KEY"]);
  assert.throws(() => c.set('BAD"NAME', "x"), /credential name/);
});

it("finds a value in every JSON spelling: Python's json.dumps, Go's encoding/json, either hex case, and in decoded values", () => {
  const secret = "sk-\u00e9<cl\u00e9>-1234";
  const c = new Credentials({ API_KEY: secret });
  const python = '{"jsonrpc": "2.0", "id": 1, "result": {"data": "sk-\\u00e9<cl\\u00e9>-1234"}}';
  const go = '{"jsonrpc":"2.0","id":1,"result":{"data":"sk-\u00e9\\u003ccl\u00e9\\u003e-1234"}}';
  const upper = '{"data":"sk-\\u00E9\\u003Ccl\\u00E9\\u003E-1234"}';
  // JSON inside a JSON string: the frame's value, once decoded, is Python's spelling.
  const nested = JSON.stringify({ result: { data: JSON.stringify({ key: secret }).replace(/\u00e9/g, "\\u00e9") } });
  for (const frame of [python, go, upper, nested]) {
    for (const out of frame === nested ? [c.redactFrame(frame)] : [c.redactFrame(frame), c.redact(frame)]) {
      assert.match(out, /\[credential API_KEY\]/, out);
      assert.ok(!JSON.stringify(JSON.parse(out)).includes("1234"), out);
    }
  }
  const deep: Record<string, unknown> = { v: `x ${secret}` };
  let value: unknown = deep;
  for (let i = 0; i < 100_000; i++) value = [value];
  const redacted = c.redactValue(value);
  let inner: unknown = redacted;
  for (let i = 0; i < 100_000; i++) inner = (inner as unknown[])[0];
  assert.deepEqual(inner, { v: "x [credential API_KEY]" });
  assert.equal(deep.v, `x ${secret}`, "the caller's value is left as it was");
  assert.deepEqual(c.redactValue({ [`${secret}`]: 1, __proto__x: 2 }), { "[credential API_KEY]": 1, __proto__x: 2 });
});
