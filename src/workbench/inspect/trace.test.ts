import assert from "node:assert/strict";
import { it } from "node:test";
import type { ReverseRecord } from "../../host/index.js";
import { Credentials } from "./credentials.js";
import { TraceStore } from "./trace.js";
import type { TraceEntry } from "./wire.js";

const rec = (dir: "send" | "recv" | "stderr", text: string) => ({ t: 0, dir, text, bytes: text.length });

it("ties an invoke, the reverse request it made, the host's answer and the invoke's answer together", () => {
  const seen: TraceEntry[] = [];
  const store = new TraceStore(new Credentials({ K: "s3cret" }), (e) => seen.push(e));
  store.record(
    rec(
      "send",
      '{"jsonrpc":"2.0","id":4,"method":"invoke","params":{"tool":"t","arguments":{},"context":{"invoke_id":"inv-1","credentials":{"K":"s3cret"}}}}',
    ),
    1,
  );
  store.record(
    rec("recv", '{"jsonrpc":"2.0","id":"r1","method":"sampling/createMessage","params":{"messages":[]}}'),
    1,
  );
  store.reverseAnswered(
    { id: "r1", method: "sampling/createMessage", routedTo: "inv-1", answeredBy: "manual" } as ReverseRecord,
    1,
  );
  store.record(rec("send", '{"jsonrpc":"2.0","id":"r1","result":{"content":{"type":"text","text":"hi"}}}'), 1);
  store.record(rec("stderr", "a log line\n"), 1);
  store.releaseStderr(1);
  // A cut frame still says what it was, from its head.
  store.record(rec("recv", '{"jsonrpc":"2.0","id":4,"result":{"success":true,"data":"xxxx… (900000 bytes)'), 1);
  const [invoke, reverse, answer, stderr, response] = store.list;
  assert.equal(invoke!.text.includes("s3cret"), false);
  assert.deepEqual([invoke!.kind, invoke!.method, invoke!.invokeId], ["request", "invoke", "inv-1"]);
  assert.deepEqual(
    [reverse!.kind, reverse!.reverse, reverse!.invokeId, reverse!.answeredBy],
    ["request", true, "inv-1", "manual"],
  );
  assert.deepEqual(
    [answer!.kind, answer!.reverse, answer!.method, answer!.invokeId],
    ["response", true, "sampling/createMessage", "inv-1"],
  );
  assert.equal(stderr!.invokeId, undefined);
  assert.deepEqual([response!.kind, response!.method, response!.invokeId], ["response", "invoke", "inv-1"]);
  assert.ok(seen.filter((e) => e.n === reverse!.n).length === 2, "the reverse request is sent again once routed");
});

it("marks a file-transport answer and learns its size once the file was read", () => {
  const store = new TraceStore(new Credentials(), () => undefined);
  store.record(
    rec("send", '{"jsonrpc":"2.0","id":7,"method":"invoke","params":{"tool":"big","context":{"invoke_id":"inv-2"}}}'),
    2,
  );
  store.record(rec("recv", '{"jsonrpc":"2.0","id":7,"__file_transport":"/tmp/x/answer.json"}'), 2);
  store.fileRead(2, 7, 700_000);
  const pointer = store.list[1]!;
  assert.deepEqual([pointer.fileTransport, pointer.fileBytes, pointer.invokeId], [true, 700_000, "inv-2"]);
});

it("finds a credential split across two stderr chunks, in any JSON spelling, and lets the rest of stderr through", async () => {
  const secret = "sk-\u00e9<cl\u00e9>-1234";
  const python = "sk-\\u00e9<cl\\u00e9>-1234";
  const go = "sk-\u00e9\\u003ccl\u00e9\\u003e-1234";
  for (const spelled of [secret, python, go, python.replaceAll("u00e9", "u00E9")]) {
    const store = new TraceStore(new Credentials({ API_KEY: secret }), () => undefined);
    const line = `log: {"key": "${spelled}"}\n`;
    for (let cut = 1; cut < line.length; cut += 3) {
      store.record(rec("stderr", line.slice(0, cut)), 1);
      store.record(rec("stderr", line.slice(cut)), 1);
    }
    store.record(rec("stderr", "the last words\n"), 1);
    await new Promise((r) => setTimeout(r, 300));
    const text = store.list.map((e) => e.text).join("");
    assert.equal(
      text,
      `log: {"key": "[credential API_KEY]"}\n`.repeat(Math.ceil((line.length - 1) / 3)) + "the last words\n",
      spelled,
    );
  }
});
