/**
 * The Python runtime's host-service helpers where the shared vectors cannot reach: the schema
 * size counted as the host counts it (JSON.stringify, not Python's json), the agent warnings in
 * the tool's log, and the PUT of an upload against a real local HTTP server (its headers, a
 * refusing status, no answer before the deadline). Through the test plugin's `service` tool, on
 * the real mock host.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { MockHost, parseRules, SCHEMA_LIMITS, Session } from "../../../src/host/index.js";
import { PROTOCOL_V2 } from "../../../src/protocol/index.js";
import { pythonPlugin } from "../helpers.js";
import { requires } from "../../support/requires.js";

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CAPABILITIES = ["llm.sample", "llm.agent.auto", "aps.files", "host.upload"];

/** A local server for presigned PUT URLs: /ok answers 200 with an ETag, /refuse 503, /hang never. */
function putServer(): Promise<{
  server: Server;
  url: string;
  seen: { path: string; headers: IncomingHttpHeaders; bytes: number }[];
}> {
  const seen: { path: string; headers: IncomingHttpHeaders; bytes: number }[] = [];
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, bytes });
      if (req.url === "/ok") res.writeHead(200, { ETag: '"etag-1"' }).end();
      else if (req.url === "/refuse") res.writeHead(503).end("busy\n");
      // /hang: no answer
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

/** A json_schema whose JSON.stringify is exactly `bytes` long; its 1e-7 numbers are one byte longer in Python's json ("1e-07"). */
function schemaOf(bytes: number): Record<string, unknown> {
  const properties = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: "number", minimum: 1e-7 }]),
  );
  const schema = { type: "object", properties, description: "" };
  schema.description = "d".repeat(bytes - Buffer.byteLength(JSON.stringify(schema)));
  assert.equal(Buffer.byteLength(JSON.stringify(schema)), bytes);
  return schema;
}

describe("Python runtime: the host-service helpers beyond the vectors", requires("python3"), () => {
  let session: Session;
  let put: Awaited<ReturnType<typeof putServer>>;
  let host: MockHost;

  const service = async (call: string, args: Any, deadlineMs?: number): Promise<Any> => {
    const r = await session.invoke(
      "service",
      { call, args },
      { timeoutMs: 30_000, ...(deadlineMs !== undefined && { deadlineMs }) },
    );
    const result = r.frame.result as Any | undefined;
    assert.equal(result?.success, true, JSON.stringify(r.frame).slice(0, 600) + session.stderr.slice(-600));
    return result!.data;
  };

  before(async () => {
    put = await putServer();
    const rules = [
      {
        method: "host/uploadFile",
        match: { filename: "refused.bin", mode: "negotiate" },
        result: { put_url: `${put.url}/refuse`, headers: {}, r2_key: "k-refused" },
      },
      {
        method: "host/uploadFile",
        match: { filename: "hang.bin", mode: "negotiate" },
        result: { put_url: `${put.url}/hang`, headers: {}, r2_key: "k-hang" },
      },
      {
        method: "host/uploadFile",
        match: { filename: "ftp.bin", mode: "negotiate" },
        result: { put_url: "ftp://example.com/x", headers: {}, r2_key: "k-ftp" },
      },
      {
        method: "files/upload_begin",
        match: { path: "ok.txt" },
        result: {
          upload_id: "u1",
          put_url: `${put.url}/ok`,
          headers: { "x-amz-meta-a": "1" },
          expires_at: "2030-01-01T00:00:00Z",
        },
      },
      { method: "files/upload_complete", match: { path: "ok.txt", etag: '"etag-1"' }, result: { ok: true } },
      {
        method: "files/upload_begin",
        match: { path: "refused.txt" },
        result: { upload_id: "u2", put_url: `${put.url}/refuse`, headers: {}, expires_at: "2030-01-01T00:00:00Z" },
      },
    ];
    host = new MockHost({ rules: parseRules(rules.map((r) => JSON.stringify(r)).join("\n"), "services.test") });
    const launch = pythonPlugin();
    session = new Session(launch, { mockHost: host, env: { EXECUTA_TEST_CAPABILITIES: JSON.stringify(CAPABILITIES) } });
    await session.initialize(PROTOCOL_V2);
  });
  after(async () => {
    await session?.dispose();
    await host?.close();
    put?.server.closeAllConnections();
    await new Promise((resolve) => put?.server.close(resolve));
  });

  test("the schema's size is counted as the host counts it: exactly the limit is sent, one byte more is refused locally", async () => {
    const format = (bytes: number) => ({
      type: "json_schema",
      json_schema: { name: "limit", schema: schemaOf(bytes) },
    });
    const atLimit = await service("sample", { prompt: "x", responseFormat: format(SCHEMA_LIMITS.maxBytes) });
    assert.equal(atLimit.result?.structured_valid, true, JSON.stringify(atLimit));
    const over = await service("sample", { prompt: "x", responseFormat: format(SCHEMA_LIMITS.maxBytes + 1) });
    assert.deepEqual(over, {
      error: {
        code: -32004,
        code_name: "INVALID_REQUEST",
        message: `INVALID_REQUEST: the schema is ${SCHEMA_LIMITS.maxBytes + 1} bytes serialised; the host accepts at most ${SCHEMA_LIMITS.maxBytes}`,
      },
    });
  });

  test("each warning of an agent run is written once to the tool's log", async () => {
    const uuid = (await service("agent.create", {})).result.uuid as string;
    const run = await service("agent.run", { uuid, content: "go" });
    assert.deepEqual(
      run.result.warnings.map((w: Any) => w.code),
      ["NO_TOOLS_AVAILABLE"],
    );
    await new Promise((resolve) => setTimeout(resolve, 200)); // stderr may trail the answer
    const lines = session.stderr.split("\n").filter((l) => l.includes("warning NO_TOOLS_AVAILABLE"));
    assert.equal(lines.length, 1, session.stderr.slice(-2000));
    assert.match(lines[0]!, /^\[service inv-[0-9a-f]+\] agent run \S+: warning NO_TOOLS_AVAILABLE: /);
  });

  test("files.upload PUTs the bytes with the host's headers (and a binary content type when the host gave none), then completes with the ETag", async () => {
    // the upload_complete rule matches only the ETag the PUT answered
    const done = await service("files.upload", { path: "ok.txt", text: "hello" });
    assert.deepEqual(done, { result: { ok: true } });
    const seen = put.seen.find((s) => s.path === "/ok");
    assert.equal(seen?.bytes, 5);
    assert.equal(seen?.headers["x-amz-meta-a"], "1");
    assert.equal(seen?.headers["content-type"], "application/octet-stream");
  });

  test("a PUT answered with another status than 200 or 201 is the namespace's storage error, naming the status", async () => {
    const upload = await service("upload", {
      size: 8 * 1024 * 1024 + 1,
      filename: "refused.bin",
      mimeType: "application/octet-stream",
    });
    assert.deepEqual(upload, {
      error: { code: -32207, code_name: "STORAGE_ERROR", message: "the PUT of the bytes was answered HTTP 503" },
    });
    const files = await service("files.upload", { path: "refused.txt", text: "x" });
    assert.deepEqual(files, {
      error: { code: -32029, code_name: "UPSTREAM", message: "the PUT of the bytes was answered HTTP 503" },
    });
  });

  test("a put_url that is not http(s) is refused without a request", async () => {
    const r = await service("upload", {
      size: 8 * 1024 * 1024 + 1,
      filename: "ftp.bin",
      mimeType: "application/octet-stream",
    });
    assert.equal(r.error?.code, -32207);
    assert.match(r.error.message, /put_url is not an http\(s\) URL: "ftp:/);
  });

  test("a PUT with no answer ends at the invoke's deadline with the namespace's TIMEOUT", async () => {
    const started = Date.now();
    const r = await service(
      "upload",
      { size: 8 * 1024 * 1024 + 1, filename: "hang.bin", mimeType: "application/octet-stream" },
      Date.now() + 3_000,
    );
    assert.equal(r.error?.code, -32208, JSON.stringify(r));
    assert.equal(r.error.code_name, "TIMEOUT");
    assert.match(r.error.message, /^TIMEOUT: no answer to the PUT of the bytes within \d+ ms$/);
    assert.ok(Date.now() - started < 10_000);
  });
});
