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
  assert.deepEqual(c.redactValue({ a: ["x hunter2! y"], credentials: { ANY: "v" } }), { a: ["x [credential SIGNING_SECRET] y"], credentials: { ANY: "[credential ANY]" } });
  assert.deepEqual(c.names, ["API_KEY", "SIGNING_SECRET"]);
  c.set("SIGNING_SECRET", "");
  assert.deepEqual(c.names, ["API_KEY"]);
  assert.throws(() => c.set('BAD"NAME', "x"), /credential name/);
});
