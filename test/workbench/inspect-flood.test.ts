/**
 * The inspector under a stderr flood with a stalled page: one /events client stops reading (a raw
 * socket that never reads again) while the plugin writes FLOOD_MIB MiB to stderr. The inspector's
 * memory stays bounded (RSS read from /proc/<pid>/status), the stalled client is dropped (it gets
 * a few MiB, then the end of the stream), and a client that reads gets the events after the flood
 * (if it fell more than the stream's headroom behind during the flood, after reconnecting, as a
 * page does).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { rawRequest, startInspect } from "./inspect-helpers.js";
import { watchMemory } from "../support/memory.js";

const FLOOD_MIB = 500;
/**
 * With no client at all such a flood takes the inspector to 400-520 MiB: the trace (64 Mi
 * characters) and the session's records (32 Mi) are bounded, plus V8's slack at this allocation
 * rate. A stream that buffered for the stalled client would add the whole flood (measured: 874 MiB
 * at 400 MiB with the per-client bound removed).
 */
const RSS_BOUND_MIB = 700;
const dir = mkdtempSync(join(tmpdir(), "executa-inspect-flood-"));
after(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, "plugin.js"),
  `const { writeSync } = require("node:fs");
const manifest = { name: "flood", display_name: "Flood", version: "1.0.0", description: "Floods stderr.", tools: [
  { name: "flood", description: "Writes MiB after MiB to stderr, then answers.", parameters: [{ name: "mib", type: "integer", description: "How much." }] },
  { name: "mark", description: "Says a word on stderr.", parameters: [{ name: "word", type: "string", description: "The word." }] },
] };
const line = Buffer.from("x".repeat(64 * 1024 - 1) + "\\n");
require("readline").createInterface({ input: process.stdin }).on("line", (text) => {
  const m = JSON.parse(text);
  if (m.id === undefined) return;
  const reply = (body) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...body }) + "\\n");
  if (m.method === "describe") return reply({ result: manifest });
  if (m.method === "health") return reply({ result: { status: "ready" } });
  if (m.method !== "invoke") return reply({ error: { code: -32601, message: "Method not found" } });
  const args = m.params.arguments;
  if (m.params.tool === "flood") for (let i = 0; i < args.mib * 16; i++) writeSync(2, line);
  else writeSync(2, args.word + "\\n");
  reply({ result: { success: true, data: {}, duration_ms: 0 } });
});
process.on("SIGTERM", () => process.exit(0));
`,
);

/** GET /events on a raw socket that reads nothing after the headers (its kernel buffers fill, then the server's). */
function stalledClient(
  port: number,
  token: string,
): Promise<{ socket: Socket; received: () => number; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () =>
      socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Executa-Token: ${token}\r\n\r\n`),
    );
    let received = 0;
    const ended = new Promise<void>((done) => socket.once("end", () => done()).once("close", () => done()));
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (chunk.includes("200 OK")) {
        socket.pause();
        resolve({ socket, received: () => received, ended });
      }
    });
    socket.on("error", reject);
  });
}

/**
 * GET /events read as fast as it comes, reconnecting a second after the stream closes, as a page's
 * EventSource does (the server says `retry: 1000`): the last 64 KiB received, and how often it was
 * dropped.
 */
function readingClient(port: number, token: string): { text: () => string; drops: () => number; stop: () => void } {
  let text = "";
  let drops = 0;
  let stopped = false;
  const open = () => {
    const req = request({ host: "127.0.0.1", port, path: "/events", headers: { "X-Executa-Token": token } }, (res) => {
      res.on(
        "data",
        (chunk: Buffer) =>
          (text = text.slice(-64 * 1024) + chunk.toString("latin1", Math.max(0, chunk.length - 64 * 1024))),
      );
      res.on("close", () => {
        if (stopped) return;
        drops++;
        setTimeout(open, 1000);
      });
    });
    req.on("error", () => undefined);
    req.end();
  };
  open();
  return { text: () => text, drops: () => drops, stop: () => ((stopped = true), undefined) };
}

const invoke = (port: number, token: string, tool: string, args: object) =>
  rawRequest(port, {
    method: "POST",
    path: "/api/invoke",
    headers: { "X-Executa-Token": token, "Content-Type": "application/json" },
    body: JSON.stringify({ tool, arguments: args }),
  });

test(`a ${FLOOD_MIB} MiB stderr flood with a stalled /events client: the inspector stays under ${RSS_BOUND_MIB} MiB, drops the stalled client, and a reading one gets the events after it`, {
  skip: process.platform !== "linux" && "reads /proc",
  timeout: 300_000,
}, async () => {
  const running = await startInspect(dir, ["--", process.execPath, "plugin.js"]);
  try {
    const pid = running.child.pid!;
    const stalled = await stalledClient(running.port, running.token);
    const reading = readingClient(running.port, running.token);
    const stopSampling = watchMemory(pid, 25, "rss");
    const flood = await invoke(running.port, running.token, "flood", { mib: FLOOD_MIB });
    assert.equal(flood.status, 200, flood.body);
    // Live events after the flood: a new word on stderr every second until one reaches the reading client.
    let word = "";
    for (let attempt = 0; attempt < 20 && !(word && reading.text().includes(word)); attempt++) {
      word = `still-reading-${attempt}-${Date.now()}`;
      const marked = await invoke(running.port, running.token, "mark", { word });
      assert.equal(marked.status, 200, marked.body);
      for (let i = 0; i < 20 && !reading.text().includes(word); i++) await new Promise((r) => setTimeout(r, 50));
    }
    const peak = stopSampling();
    reading.stop();
    assert.ok(peak < RSS_BOUND_MIB, `the inspector's RSS reached ${peak.toFixed(0)} MiB`);
    assert.ok(
      reading.text().includes(word),
      `the reading client did not get the events after the flood (dropped ${reading.drops()} time(s))`,
    );
    // Read what the stalled client was sent: a bounded amount, then the end (the server dropped it).
    stalled.socket.resume();
    const ended = await Promise.race([
      stalled.ended.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 20_000)),
    ]);
    assert.equal(ended, true, "the stalled client is still connected");
    assert.ok(
      stalled.received() < 64 * 1024 * 1024,
      `the stalled client was sent ${(stalled.received() / 1024 / 1024).toFixed(0)} MiB`,
    );
  } finally {
    await running.interrupt();
  }
});
