/**
 * The host simulator does what Anna's own host does: it serves reverse requests when no
 * initialize was sent, records executa/progress per invoke (a late or unknown one is a problem,
 * not a crash), answers an invoke response over 4 MiB with RESULT_TOO_LARGE, and answers an
 * oversized reverse request -32600 frame_too_large.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Session, type LaunchSpec } from "../../src/host/index.js";
import { REPO_ROOT } from "./helpers.js";

const CORPUS = join(REPO_ROOT, "test", "plugins");
const researcher: LaunchSpec = { command: process.execPath, args: [join(CORPUS, "node", "web-researcher.mjs")] };

const dir = mkdtempSync(join(tmpdir(), "executa-platform-host-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A plugin that reports progress before and after its answer, answers big on request, and sends a 17 MiB reverse request. */
const QUIRKS = join(dir, "quirks.mjs");
writeFileSync(
  QUIRKS,
  `
import readline from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const progress = (invoke_id, data, type) => send({ jsonrpc: "2.0", method: "executa/progress", params: { context: { invoke_id }, ...(type && { type }), data } });
let answer;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === undefined) return answer?.(m);
  const inv = m.params?.context?.invoke_id;
  if (m.params?.tool === "late") {
    progress(inv, { step: 1 });
    progress(inv, "not an object", "percent");
    send({ jsonrpc: "2.0", id: m.id, result: { success: true, data: {} } });
    progress(inv, { step: 2 });
  } else if (m.params?.tool === "big") {
    send({ jsonrpc: "2.0", id: m.id, result: { success: true, data: { text: "x".repeat(m.params.arguments.bytes) } } });
  } else if (m.params?.tool === "huge_request") {
    answer = (reply) => send({ jsonrpc: "2.0", id: m.id, result: { success: true, data: reply } });
    send({ jsonrpc: "2.0", id: 77, method: "host/uploadFile", params: { context: { invoke_id: inv }, mode: "inline", content_b64: "A".repeat(17 * 1024 * 1024) } });
  }
});
`,
);
const quirks: LaunchSpec = { command: process.execPath, args: [QUIRKS] };

describe("the host simulator, as Anna's host", () => {
  it("serves reverse requests when no initialize was sent, and only an initialize on another version turns them off", async () => {
    const session = new Session(researcher, { hostCapabilities: ["web.search"] });
    try {
      assert.equal(session.reverseAllowed, true);
      const r = await session.invoke("research", { topic: "tide tables" }, { timeoutMs: 10_000 });
      assert.equal((r.frame.result as { success: boolean }).success, true, JSON.stringify(r.frame));
      const [search] = session.mockHost.log;
      assert.equal(search!.method, "web/search");
      assert.equal(search!.state, "answered");
      assert.equal(search!.error, undefined);
      assert.deepEqual(
        r.progress!.map((p) => [p.type, (p.data as { step: number }).step, p.tool, p.problem]),
        [
          ["progress", 1, "research", undefined],
          ["progress", 2, "research", undefined],
        ],
      );
    } finally {
      await session.dispose();
    }
    const v1 = new Session(researcher);
    try {
      await v1.initialize("1.1");
      assert.equal(v1.reverseAllowed, false);
      const handled = await v1.mockHost.handle(
        { jsonrpc: "2.0", id: 1, method: "web/search", params: { query: "q" } },
        {
          negotiatedV2: v1.reverseAllowed,
          protocolVersion: v1.protocolVersion!,
          hostCapabilities: undefined,
          activeInvokes: new Map(),
        },
      );
      assert.match((handled as { error: { message: string } }).error.message, /the initialize ended on "1\.1"/);
    } finally {
      await v1.dispose();
    }
  });

  it("records progress per invoke; progress after the answer, with a bad type or data, is a problem, not a crash", async () => {
    const seen: string[] = [];
    const session = new Session(quirks, { onProgress: (e) => seen.push(e.problem ? "problem" : "ok") });
    try {
      const r = await session.invoke("late", {}, { timeoutMs: 10_000 });
      assert.equal(r.progress!.length, 2);
      assert.match(
        r.progress![1]!.problem!,
        /type "percent" is neither "progress" nor "tool_update".*data "not an object" is not a JSON object/,
      );
      for (let i = 0; i < 50 && session.progressCount < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.match(
        session.progress[2]!.problem!,
        /had already finished; the platform drops progress for a finished invoke/,
      );
      assert.deepEqual(seen, ["ok", "problem", "problem"]);
      assert.equal(session.alive, true);
    } finally {
      await session.dispose();
    }
  });

  it("answers an invoke response over 4 MiB the way the platform does (RESULT_TOO_LARGE); 4 MiB or less arrives intact", async () => {
    const session = new Session(quirks);
    try {
      const fits = await session.invoke("big", { bytes: 3 * 1024 * 1024 }, { timeoutMs: 20_000 });
      assert.equal(fits.tooLarge, undefined);
      assert.equal((fits.frame.result as { data: { text: string } }).data.text.length, 3 * 1024 * 1024);
      const r = await session.invoke("big", { bytes: 5 * 1024 * 1024 }, { timeoutMs: 20_000 });
      const result = r.frame.result as {
        success: boolean;
        error: string;
        data: { errorCode: string; result_size_bytes: number; max_payload_bytes: number };
      };
      assert.equal(result.success, false);
      assert.equal(result.data.errorCode, "RESULT_TOO_LARGE");
      assert.equal(result.data.max_payload_bytes, 4 * 1024 * 1024);
      assert.ok(result.data.result_size_bytes > 5 * 1024 * 1024);
      assert.match(result.error, /^result too large: .*return a file reference \(host\/uploadFile or APS files\)/);
      assert.equal(r.tooLarge!.bytes, result.data.result_size_bytes);
      assert.deepEqual(
        session.invokeAnswerNotes.map((n) => [n.tool, n.tooLarge, n.byFile]),
        [["big", true, false]],
      );
    } finally {
      await session.dispose();
    }
  });

  it("answers a reverse request over 16 MiB -32600 frame_too_large, as the platform does", async () => {
    const session = new Session(quirks);
    try {
      const r = await session.invoke("huge_request", {}, { timeoutMs: 20_000 });
      const reply = (r.frame.result as { data: { error: { code: number; data: { errorCode: string } } } }).data;
      assert.equal(reply.error.code, -32600);
      assert.equal(reply.error.data.errorCode, "frame_too_large");
    } finally {
      await session.dispose();
    }
  });
});
