#!/usr/bin/env node
// web-researcher: searches the web through the host (web/search), reporting progress as it goes.
// Written like the official SDK examples: host services are on unless an initialize arrives that
// offers another protocol version (Anna's local-dev runtime sends no initialize at all); every
// reverse request and progress notification carries the invoke's context.invoke_id; progress is
// sent only while the invoke runs.
import { randomUUID } from "node:crypto";
import readline from "node:readline";

const MANIFEST = {
  name: "web-researcher",
  display_name: "Web Researcher",
  version: "0.2.0",
  description: "Finds pages about a topic with the host's web search.",
  host_capabilities: ["web.search"],
  tools: [
    {
      name: "research",
      description: "Search the web for a topic and list the top pages.",
      parameters: [
        { name: "topic", type: "string", description: "What to look for", required: true },
        { name: "limit", type: "integer", description: "How many pages", required: false, default: 3 },
      ],
    },
  ],
};

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
const pending = new Map();
let refusedVersion = null;

function hostRequest(method, params, invokeId) {
  if (refusedVersion) return Promise.reject(new Error(`the host offered protocol ${refusedVersion}; ${method} needs 2.0`));
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send({ jsonrpc: "2.0", id, method, params: { ...params, context: { invoke_id: invokeId } } });
  });
}

const progress = (invokeId, data) => send({ jsonrpc: "2.0", method: "executa/progress", params: { context: { invoke_id: invokeId }, type: "progress", data } });

async function research(args, invokeId) {
  if (typeof args.topic !== "string" || !args.topic) throw Object.assign(new Error("topic is required"), { code: -32602 });
  progress(invokeId, { step: 1, of: 2, message: `searching for ${args.topic}` });
  const found = await hostRequest("web/search", { query: args.topic, max_results: args.limit ?? 3 }, invokeId);
  progress(invokeId, { step: 2, of: 2, message: `${found.results.length} results` });
  return { topic: args.topic, pages: found.results.map((r) => ({ title: r.title, url: r.url })) };
}

async function handle(msg) {
  const { id, method, params } = msg;
  if (method === "initialize") {
    const offered = params?.protocolVersion ?? "1.1";
    refusedVersion = offered === "2.0" ? null : offered;
    return send({ jsonrpc: "2.0", id, result: { protocolVersion: offered === "2.0" ? "2.0" : "1.1", serverInfo: { name: MANIFEST.name, version: MANIFEST.version }, client_capabilities: offered === "2.0" ? { web: { search: true } } : {} } });
  }
  if (id === undefined) return;
  if (method === "describe") return send({ jsonrpc: "2.0", id, result: MANIFEST });
  if (method === "health") return send({ jsonrpc: "2.0", id, result: { status: "ready", version: MANIFEST.version } });
  if (method === "invoke") {
    if (params?.tool !== "research") return send({ jsonrpc: "2.0", id, error: { code: -32601, message: `unknown tool: ${params?.tool}` } });
    try {
      const data = await research(params.arguments ?? {}, params.context?.invoke_id);
      return send({ jsonrpc: "2.0", id, result: { success: true, data } });
    } catch (error) {
      if (error.code === -32602) return send({ jsonrpc: "2.0", id, error: { code: -32602, message: error.message } });
      return send({ jsonrpc: "2.0", id, result: { success: false, error: error.message } });
    }
  }
  send({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
}

const rl = readline.createInterface({ input: process.stdin });
// stdin closed: no host answer can come any more, so the invokes waiting for one fail and answer.
rl.on("close", () => {
  for (const entry of pending.values()) entry.reject(new Error("the host closed stdin before it answered"));
  pending.clear();
});
rl.on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg) || (msg.method === undefined && msg.id === undefined)) {
    return send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
  }
  if (msg.method === undefined) {
    const entry = pending.get(msg.id);
    if (!entry) return;
    pending.delete(msg.id);
    return msg.error ? entry.reject(new Error(msg.error.message)) : entry.resolve(msg.result);
  }
  if (typeof msg.method !== "string") return send({ jsonrpc: "2.0", id: msg.id ?? null, error: { code: -32600, message: "Invalid Request" } });
  void handle(msg);
});
process.on("SIGTERM", () => process.exit(0));
