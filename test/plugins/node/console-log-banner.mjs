#!/usr/bin/env node
// uuid-tools: generates UUIDs and random tokens. The protocol side is right, but it greets with
// console.log, which goes to stdout, the protocol channel.
import { randomBytes, randomUUID } from "node:crypto";
import { createInterface } from "node:readline";

const manifest = {
  name: "uuid-tools",
  display_name: "UUID Tools",
  version: "0.9.0",
  description: "Generate UUIDs and URL-safe random tokens.",
  tools: [
    {
      name: "uuid",
      description: "Generate one or more random UUIDs (version 4).",
      parameters: [{ name: "count", type: "integer", description: "How many (1-50)", required: false, default: 1 }],
    },
    {
      name: "token",
      description: "Generate a URL-safe random token.",
      parameters: [{ name: "bytes", type: "integer", description: "Entropy in bytes (8-64)", required: false, default: 24 }],
    },
  ],
  runtime: { type: "node" },
};

console.log(`uuid-tools ${manifest.version} ready`);

const out = (o) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...o }) + "\n");
const bad = (id, message) => out({ id, error: { code: -32602, message } });

function invoke(id, { tool, arguments: args = {} }) {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return bad(id, "arguments must be an object");
  if (tool === "uuid") {
    const count = args.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 50) return bad(id, "count must be an integer from 1 to 50");
    return out({ id, result: { success: true, data: { uuids: Array.from({ length: count }, () => randomUUID()) } } });
  }
  if (tool === "token") {
    const bytes = args.bytes ?? 24;
    if (!Number.isInteger(bytes) || bytes < 8 || bytes > 64) return bad(id, "bytes must be an integer from 8 to 64");
    return out({ id, result: { success: true, data: { token: randomBytes(bytes).toString("base64url") } } });
  }
  out({ id, error: { code: -32601, message: `Unknown tool: ${tool}` } });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return out({ id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return out({ id: null, error: { code: -32600, message: "Invalid Request" } });
  if (msg.id === undefined) return;
  if (msg.method === "describe") return out({ id: msg.id, result: manifest });
  if (msg.method === "health") return out({ id: msg.id, result: { status: "ready", message: "", details: {} } });
  if (msg.method === "invoke") return invoke(msg.id, msg.params ?? {});
  out({ id: msg.id, error: { code: -32601, message: "Method not found" } });
});
process.on("SIGTERM", () => process.exit(0));
