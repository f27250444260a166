/**
 * What the vectors do not see of the Go host-service helpers: an agent run's warnings on stderr,
 * the PUT of an upload answered with an error status or not at all (the vector runner's mock host
 * only gives PUT URLs that work), and the schema limits counted on the schema as the host decodes
 * it (JSON.parse, then JSON.stringify), not on the bytes Go writes.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { runVectors, type Step, type Vector } from "../../../src/conform/vectors.js";
import { MockHost, Session, type Answer, type LaunchSpec, type ReverseContext } from "../../../src/host/index.js";
import { goPlugin } from "../helpers.js";
import { requires } from "../../support/requires.js";

/** A PUT endpoint: `/status/<n>` answers n, `/hang` never answers. */
async function putServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === "/hang") return;
    res.writeHead(Number(req.url?.split("/")[2] ?? 500)).end("no");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The mock host, except that the presigned PUT URLs are `putUrl`. */
class BrokenPutHost extends MockHost {
  putUrl = "";

  override handle(frame: Record<string, unknown>, ctx: ReverseContext): Promise<Answer> {
    const params = (frame.params ?? {}) as Record<string, unknown>;
    if (frame.method === "host/uploadFile" && params.mode === "negotiate") {
      return Promise.resolve({ result: { put_url: this.putUrl, headers: {}, r2_key: "k", expires_at: "t" } });
    }
    if (frame.method === "files/upload_begin")
      return Promise.resolve({ result: { upload_id: "u", put_url: this.putUrl, headers: {}, expires_at: "t" } });
    return super.handle(frame, ctx);
  }
}

type ServiceData = { result?: Record<string, unknown>; error?: { code: number; code_name: string; message: string } };

describe("Go host-service helpers", requires("go"), () => {
  let plugin: LaunchSpec;
  let put: { server: Server; base: string };
  let host: BrokenPutHost;
  let session: Session;

  before(async () => {
    plugin = goPlugin();
    put = await putServer();
    host = new BrokenPutHost();
    session = new Session(plugin, {
      mockHost: host,
      env: { EXECUTA_TEST_CAPABILITIES: JSON.stringify(["llm.agent.auto", "host.upload", "aps.files"]) },
    });
    assert.equal(((await session.initialize()).frame.result as { protocolVersion: string }).protocolVersion, "2.0");
  });
  after(async () => {
    await session?.dispose();
    await host?.close();
    put?.server.closeAllConnections();
    put?.server.close();
  });

  const service = async (call: string, args: Record<string, unknown>) => {
    const answer = await session.invoke("service", { call, args }, { timeoutMs: 10_000 });
    return (answer.frame.result as { data: ServiceData }).data;
  };

  test("each warning of an agent run is written once to stderr, through the tool's log", async () => {
    const created = await service("agent.create", {});
    const run = await service("agent.run", { uuid: created.result!.uuid, content: "hello" });
    assert.equal((run.result!.warnings as { code: string }[])[0]!.code, "NO_TOOLS_AVAILABLE");
    const warned = () => session.stderr.split("\n").filter((l) => l.includes("NO_TOOLS_AVAILABLE"));
    for (const until = Date.now() + 3000; warned().length === 0 && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100)); // a second one would have come by now
    const lines = warned();
    assert.equal(lines.length, 1, session.stderr);
    assert.match(lines[0]!, /^\[service inv-[^\]]+\] agent run run_\w+: warning NO_TOOLS_AVAILABLE: /);
  });

  test("an upload PUT answered other than 200 or 201 is -32207 STORAGE_ERROR with the status", async () => {
    host.putUrl = `${put.base}/status/500`;
    const { error } = await service("upload", {
      size: 8 * 1024 * 1024 + 1,
      filename: "big.bin",
      mimeType: "application/octet-stream",
    });
    assert.deepEqual({ code: error!.code, name: error!.code_name }, { code: -32207, name: "STORAGE_ERROR" });
    assert.match(error!.message, /HTTP 500/);
  });

  test("a files PUT answered 403 is -32029 UPSTREAM with the status", async () => {
    host.putUrl = `${put.base}/status/403`;
    const { error } = await service("files.upload", { path: "a.txt", text: "x" });
    assert.deepEqual({ code: error!.code, name: error!.code_name }, { code: -32029, name: "UPSTREAM" });
    assert.match(error!.message, /HTTP 403/);
  });

  test("a PUT that is never answered ends with the namespace's TIMEOUT when the context's deadline comes", async () => {
    host.putUrl = `${put.base}/hang`;
    const started = Date.now();
    const { error } = await service("files.upload", { path: "a.txt", text: "x", timeoutMs: 300 });
    assert.deepEqual({ code: error!.code, name: error!.code_name }, { code: -32030, name: "TIMEOUT" });
    // Go bounds the whole call by the context: the PUT waits what is left of the 300 ms
    const left = Number(/^TIMEOUT: no answer to the PUT of the bytes within (\d+) ms$/.exec(error!.message)?.[1]);
    assert.ok(left > 0 && left <= 300, error!.message);
    assert.ok(Date.now() - started < 5000);
  });

  test("a PUT that cannot connect names the reason, not the presigned URL", async () => {
    const closed = await putServer();
    closed.server.close();
    host.putUrl = `${closed.base}/secret-token/put`;
    const { error } = await service("files.upload", { path: "a.txt", text: "x" });
    assert.equal(error!.code, -32029);
    assert.match(error!.message, /^the PUT of the bytes failed: /);
    assert.doesNotMatch(error!.message, /secret-token/);
  });

  test("a put_url that is not http(s) is refused without a request", async () => {
    host.putUrl = "file:///etc/passwd";
    const { error } = await service("files.upload", { path: "a.txt", text: "x" });
    assert.equal(error!.code, -32029);
    assert.match(error!.message, /not an http\(s\) URL/);
  });

  describe("the schema limits count the schema as the host decodes it", () => {
    const MAX = 32 * 1024;
    const answer = { role: "assistant", content: { type: "text", text: "{}" }, model: "m", stopReason: "endTurn" };
    const initialize: Step[] = [
      { send: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2.0" } } },
      { expect: { jsonrpc: "2.0", id: 0, result: "$object" } },
    ];
    /** An invoke of `sample` with the schema written exactly as `schemaText`. */
    const invokeRaw = (id: number, schemaText: string): Step => ({
      send_raw: [
        `{"jsonrpc":"2.0","id":${id},"method":"invoke","params":{"tool":"service","arguments":{"call":"sample","args":{"prompt":"x",` +
          `"responseFormat":{"type":"json_schema","json_schema":{"name":"s","schema":${schemaText}}}}},"context":{"invoke_id":"inv-1"}}}\n`,
      ],
    });
    const sent: Step = {
      expect: { jsonrpc: "2.0", id: { $match: "^[0-9a-f]{32}$" }, method: "sampling/createMessage", params: "$object" },
    };
    const answered = (id: number): Step => ({
      expect: {
        jsonrpc: "2.0",
        id,
        result: {
          success: true,
          data: { result: { text: "{}", structured_valid: false, downgraded: false, parsed: null } },
          duration_ms: "$integer",
        },
      },
    });
    const refused = (id: number, limit: string): Step => ({
      expect: {
        jsonrpc: "2.0",
        id,
        result: {
          success: true,
          data: { error: { code: -32004, code_name: "INVALID_REQUEST", message: { $match: limit } } },
          duration_ms: "$integer",
        },
      },
    });
    /** `{"type":"object","description":"<filler>"<tail>}`, as JSON.stringify writes it, padded to `bytes`. */
    const padded = (bytes: number, filler: string, tail = "") => {
      const base = Buffer.byteLength(`{"type":"object","description":""${tail}}`);
      const unit = Buffer.byteLength(JSON.stringify(filler)) - 2;
      const n = Math.floor((bytes - base) / unit);
      const rest = "d".repeat(bytes - base - n * unit);
      return `{"type":"object","description":${JSON.stringify(filler.repeat(n) + rest)}${tail}}`;
    };
    const vector = (id: string, title: string, steps: Step[]): Vector => ({
      id,
      row: "reverse",
      title,
      tools: ["service"],
      line: 0,
      host: [{ method: "sampling/createMessage", result: answer }],
      steps: [...initialize, ...steps],
    });

    test("bytes are JSON.stringify's: <, >, & and U+2028 count as themselves, escapes as what they stand for, numbers as JavaScript writes them", async () => {
      const html = padded(MAX, "<>&\u2028");
      assert.equal(Buffer.byteLength(html), MAX); // Go would write each of <, >, & and U+2028 as a six-byte escape
      const escaped = padded(MAX, "a").replace(/a/g, "\\u0061"); // six bytes here, one in the schema
      const number = padded(MAX, "d", `,"maximum":1e21`); // MAX bytes here; 1e21 is written 1e+21, one more
      const trailing = padded(MAX + 2, "d", `,"minimum":1.0`); // two bytes over here; 1.0 is written 1
      assert.equal(Buffer.byteLength(JSON.stringify(JSON.parse(number))), MAX + 1);
      assert.equal(Buffer.byteLength(JSON.stringify(JSON.parse(trailing))), MAX);
      const results = await runVectors(
        [
          vector("schema.bytes-as-the-host-counts", "bytes as JSON.stringify counts them", [
            invokeRaw(1, html),
            sent,
            answered(1),
            invokeRaw(2, padded(MAX + 1, "<>&\u2028")),
            refused(2, "32769 bytes serialised; the host accepts at most 32768"),
            invokeRaw(3, escaped),
            sent,
            answered(3),
            invokeRaw(4, number),
            refused(4, "32769 bytes"),
            invokeRaw(5, trailing),
            sent,
            answered(5),
          ]),
        ],
        plugin,
        { concurrency: 1 },
      );
      assert.deepEqual(
        [...results.values()].filter((r) => !r.ok).map((r) => r.failure),
        [],
      );
    });

    test("subschemas are walked in JavaScript's member order, so the walk stops where the host's stops", async () => {
      const chain = (levels: number): string =>
        levels === 1 ? `{"type":"string"}` : `{"type":"object","properties":{"a":${chain(levels - 1)}}}`;
      const many = Array.from({ length: 600 }, (_, i) => `"p${i}":{}`).join(",");
      // 600 subschemas, then one nesting 10 deep: the walk stops past 513 nodes before it gets there
      const deepLast = `{"type":"object","properties":{${many},"deep":${chain(10)}}}`;
      // an integer key comes first in JavaScript whatever its place in the text: the depth is found first
      const deepFirst = `{"type":"object","properties":{${many},"9":${chain(10)}}}`;
      // the last of two members of one name counts
      const repeated = `{"type":"object","properties":{${many}},"properties":{}}`;
      const results = await runVectors(
        [
          vector("schema.member-order", "subschemas in JavaScript's order", [
            invokeRaw(1, deepLast),
            refused(1, "more than 512 subschemas"),
            invokeRaw(2, deepFirst),
            refused(2, "deeper than 8 levels"),
            invokeRaw(3, repeated),
            sent,
            answered(3),
          ]),
        ],
        plugin,
        { concurrency: 1 },
      );
      assert.deepEqual(
        [...results.values()].filter((r) => !r.ok).map((r) => r.failure),
        [],
      );
    });
  });
});
