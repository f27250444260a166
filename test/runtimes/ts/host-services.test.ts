/**
 * What the vectors cannot see of the TypeScript host-service helpers: the agent run's warnings on
 * stderr, and the PUT of an upload answered with an error status or not at all (the vector
 * runner's mock host only gives PUT URLs that work).
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { MockHost, Session, type Answer, type ReverseContext } from "../../../src/host/index.js";
import { tsPlugin } from "../helpers.js";

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

describe("TypeScript host-service helpers", () => {
  let put: { server: Server; base: string };
  let host: BrokenPutHost;
  let session: Session;

  before(async () => {
    put = await putServer();
    host = new BrokenPutHost();
    session = new Session(tsPlugin(), {
      mockHost: host,
      env: { EXECUTA_TEST_CAPABILITIES: JSON.stringify(["llm.agent.auto", "host.upload", "aps.files"]) },
    });
    assert.equal(((await session.initialize()).frame.result as { protocolVersion: string }).protocolVersion, "2.0");
  });
  after(async () => {
    await session.dispose();
    await host.close();
    put.server.closeAllConnections();
    put.server.close();
  });

  const service = async (call: string, args: Record<string, unknown>) => {
    const answer = await session.invoke("service", { call, args }, { timeoutMs: 10_000 });
    return (
      answer.frame.result as {
        data: { result?: Record<string, unknown>; error?: { code: number; code_name: string; message: string } };
      }
    ).data;
  };

  test("each warning of an agent run is written once to stderr, through the tool's log", async () => {
    const created = await service("agent.create", {});
    const uuid = created.result!.uuid as string;
    const run = await service("agent.run", { uuid, content: "hello" });
    assert.equal((run.result!.warnings as { code: string }[])[0]!.code, "NO_TOOLS_AVAILABLE");
    const warned = () => session.stderr.split("\n").filter((l) => l.includes("NO_TOOLS_AVAILABLE"));
    // stderr is read apart from stdout: the line may come just after the answer
    for (const until = Date.now() + 3000; warned().length === 0 && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100)); // and a second one would come by now
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

  test("a PUT that is never answered ends with the namespace's TIMEOUT when the wait runs out", async () => {
    host.putUrl = `${put.base}/hang`;
    const started = Date.now();
    const { error } = await service("files.upload", { path: "a.txt", text: "x", timeoutMs: 300 });
    assert.deepEqual({ code: error!.code, name: error!.code_name }, { code: -32030, name: "TIMEOUT" });
    assert.match(error!.message, /^TIMEOUT: no answer to the PUT of the bytes within 300 ms$/);
    assert.ok(Date.now() - started < 5000);
  });

  test("a put_url that is not http(s) is refused without a request", async () => {
    host.putUrl = "file:///etc/passwd";
    const { error } = await service("files.upload", { path: "a.txt", text: "x" });
    assert.equal(error!.code, -32029);
    assert.match(error!.message, /not an http\(s\) URL/);
  });
});
