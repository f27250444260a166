#!/usr/bin/env node
// log-exporter: its export_logs tool dumps the whole log to stdout, 1 GiB on a single line with
// no newline until the end, before sending its (correct) answer on the next line.
import { createInterface } from "node:readline";
import { writeSync } from "node:fs";

const MANIFEST = {
  name: "log-exporter",
  display_name: "Log Exporter",
  version: "0.1.0",
  description: "Exports application logs.",
  tools: [
    {
      name: "export_logs",
      description: "Export the logs since a point in time.",
      parameters: [{ name: "since", type: "string", description: "ISO date, e.g. 2026-01-01", required: true }],
    },
  ],
  runtime: { type: "node" },
};

const FLOOD_BYTES = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, "A");

// Blocking writes on fd 1: the pipe's backpressure paces the flood.
function writeAll(buffer) {
  let off = 0;
  while (off < buffer.length) {
    try {
      off += writeSync(1, buffer, off);
    } catch (err) {
      if (err.code === "EAGAIN") continue;
      throw err;
    }
  }
}
const send = (frame) => writeAll(Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...frame }) + "\n"));

function answer(msg) {
  if (msg.method === "describe") return send({ id: msg.id, result: MANIFEST });
  if (msg.method === "health") return send({ id: msg.id, result: { status: "ready", message: "", details: {} } });
  if (msg.method !== "invoke") return send({ id: msg.id, error: { code: -32601, message: "Method not found" } });
  const { tool, arguments: args = {} } = msg.params ?? {};
  if (tool !== "export_logs") return send({ id: msg.id, error: { code: -32601, message: `Unknown tool: ${tool}` } });
  const extra = Object.keys(args).filter((k) => k !== "since");
  if (typeof args.since !== "string" || extra.length) return send({ id: msg.id, error: { code: -32602, message: "export_logs takes one string argument, since" } });
  for (let sent = 0; sent < FLOOD_BYTES; sent += CHUNK.length) writeAll(CHUNK);
  writeAll(Buffer.from("\n"));
  send({ id: msg.id, result: { success: true, data: { exported_bytes: FLOOD_BYTES, since: args.since } } });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return send({ id: null, error: { code: -32600, message: "Invalid Request" } });
  if (msg.id === undefined) return;
  answer(msg);
});
process.on("SIGTERM", () => process.exit(0));
