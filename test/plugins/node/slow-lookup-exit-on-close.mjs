#!/usr/bin/env node
// dns-lookup: resolves host names (through a slow resolver stand-in). Answers are asynchronous,
// and the plugin calls process.exit(0) as soon as stdin closes, like the public sampling example:
// whatever was still being looked up when the Agent closed stdin is never answered.
import { createInterface } from "node:readline";

const MANIFEST = {
  name: "dns-lookup",
  display_name: "DNS Lookup",
  version: "1.1.0",
  description: "Resolves host names to addresses.",
  tools: [
    {
      name: "resolve",
      description: "Resolve a host name to its IPv4 addresses.",
      parameters: [{ name: "host", type: "string", description: "The host name", required: true }],
    },
  ],
  runtime: { type: "node", min_version: "18.0.0" },
};

const send = (frame) => process.stdout.write(JSON.stringify(frame) + "\n");

// Deterministic stand-in for a resolver that takes a moment.
function resolveSlowly(host) {
  return new Promise((done) =>
    setTimeout(() => {
      let h = 7;
      for (const c of host) h = (h * 33 + c.charCodeAt(0)) >>> 0;
      done([`10.${h % 256}.${(h >> 8) % 256}.${(h >> 16) % 256}`]);
    }, 300),
  );
}

async function handle(msg) {
  const { id, method, params = {} } = msg;
  if (method === "describe") return { jsonrpc: "2.0", id, result: MANIFEST };
  if (method === "health") return { jsonrpc: "2.0", id, result: { status: "ready", message: "", details: {} } };
  if (method !== "invoke") return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
  if (params.tool !== "resolve") return { jsonrpc: "2.0", id, error: { code: -32601, message: `Unknown tool: ${params.tool}` } };
  const host = params.arguments?.host;
  if (typeof host !== "string" || !host) return { jsonrpc: "2.0", id, error: { code: -32602, message: "host (string) is required" } };
  return { jsonrpc: "2.0", id, result: { success: true, data: { host, addresses: await resolveSlowly(host) } } };
}

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
    send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
    return;
  }
  if (msg.id === undefined || msg.id === null) return;
  handle(msg).then(send, (err) => send({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: String(err) } }));
});
rl.on("close", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
