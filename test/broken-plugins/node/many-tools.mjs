#!/usr/bin/env node
// Correct in everything, with very many tools: describe lists MANY_TOOLS (default 100 000) tools,
// each with one string parameter `q`; every invoke of one with a string `q` succeeds, after
// MANY_TOOLS_INVOKE_MS (default 0) milliseconds.
import { createInterface } from "node:readline";

const COUNT = Number(process.env.MANY_TOOLS ?? 100_000);
const INVOKE_MS = Number(process.env.MANY_TOOLS_INVOKE_MS ?? 0);
const tools = Array.from({ length: COUNT }, (_, i) => ({ name: `tool_${i}`, description: `Tool ${i}.`, parameters: [{ name: "q", type: "string", description: "A query." }] }));
const names = new Set(tools.map((t) => t.name));
const manifest = { name: "many-tools", display_name: "Many Tools", version: "1.0.0", description: "A plugin with very many tools.", tools };

const send = (frame) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...frame }) + "\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (!m || typeof m !== "object" || Array.isArray(m)) return send({ id: null, error: { code: -32600, message: "Invalid Request" } });
  if (m.id === undefined) return;
  const { id, method, params } = m;
  if (method === "describe") send({ id, result: manifest });
  else if (method === "health") send({ id, result: { status: "ready" } });
  else if (method === "invoke" && !names.has(params?.tool)) send({ id, error: { code: -32601, message: `Unknown tool: ${params?.tool}` } });
  else if (method === "invoke" && typeof params.arguments?.q !== "string") send({ id, error: { code: -32602, message: "Invalid params: q must be a string" } });
  else if (method === "invoke") setTimeout(() => send({ id, result: { success: true, data: { tool: params.tool }, duration_ms: INVOKE_MS } }), INVOKE_MS);
  else send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
});
process.on("SIGTERM", () => process.exit(0));
