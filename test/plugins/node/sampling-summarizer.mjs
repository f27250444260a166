#!/usr/bin/env node
// sampling-summarizer: asks the host's LLM for a summary (Executa protocol 2.0, sampling/createMessage).
// Written like the public Node sampling example, with the sampling client inlined (no SDK):
// the invoke id is read from params.invoke_id and sent back only in metadata.executa_invoke_id.
import { randomUUID } from "node:crypto";
import readline from "node:readline";

const MANIFEST = {
  display_name: "Sampling Summarizer (Node.js)",
  version: "0.1.0",
  description: "Summarizes text by asking the host to sample an LLM.",
  author: "Anna Developer",
  host_capabilities: ["llm.sample"],
  tools: [
    {
      name: "summarize",
      description: "Summarize the supplied text into one short paragraph.",
      parameters: [
        { name: "text", type: "string", description: "Text to summarize", required: true },
        { name: "max_words", type: "integer", description: "Approx max words", required: false, default: 80 },
      ],
    },
  ],
  runtime: { type: "node", min_version: "18.0.0" },
};

function writeFrame(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

// ─── a tiny sampling client ─────────────────────────────────────────
const pending = new Map();
let disabledReason = null;

class SamplingError extends Error {
  constructor(code, message, data) {
    super(`[${code}] ${message}`);
    this.code = code;
    this.data = data;
  }
}

function createMessage(params, timeoutMs = 90_000) {
  if (disabledReason) return Promise.reject(new SamplingError(-32008, disabledReason));
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new SamplingError(-32005, "sampling timed out"));
    }, timeoutMs);
    pending.set(id, { resolve, reject, timer });
    writeFrame({ jsonrpc: "2.0", id, method: "sampling/createMessage", params });
  });
}

function dispatchResponse(msg) {
  const entry = pending.get(msg.id);
  if (!entry) return false;
  pending.delete(msg.id);
  clearTimeout(entry.timer);
  if (msg.error) entry.reject(new SamplingError(msg.error.code, msg.error.message, msg.error.data));
  else entry.resolve(msg.result);
  return true;
}

// ─── handlers ───────────────────────────────────────────────────────
function handleInitialize(id, params) {
  const proto = (params && params.protocolVersion) || "1.1";
  if (proto !== "2.0") disabledReason = `host did not negotiate v2 (offered ${proto})`;
  return {
    jsonrpc: "2.0",
    id,
    result: {
      protocolVersion: proto === "2.0" ? "2.0" : "1.1",
      serverInfo: { name: MANIFEST.display_name, version: MANIFEST.version },
      client_capabilities: proto === "2.0" ? { sampling: {} } : {},
      capabilities: {},
    },
  };
}

async function summarize(args, invokeId) {
  const text = String(args.text || "");
  if (!text.trim()) return { summary: "", note: "empty input" };
  const maxWords = Math.max(20, Math.min(400, Number(args.max_words || 80)));
  const result = await createMessage({
    messages: [{ role: "user", content: { type: "text", text: `Summarize in at most ${maxWords} words:\n\n${text}` } }],
    maxTokens: Math.max(64, Math.min(1024, maxWords * 5)),
    systemPrompt: "You are a concise editorial assistant.",
    metadata: { executa_invoke_id: invokeId, tool: "summarize" },
  });
  const content = result.content || {};
  return { summary: content.type === "text" ? content.text : "", model: result.model, usage: result.usage };
}

async function handleInvoke(id, params) {
  const tool = params.tool;
  const invokeId = params.invoke_id || "";
  if (tool !== "summarize") return { jsonrpc: "2.0", id, error: { code: -32601, message: `Unknown tool: ${tool}` } };
  try {
    const data = await summarize(params.arguments || {}, invokeId);
    return { jsonrpc: "2.0", id, result: { success: true, tool, data } };
  } catch (err) {
    if (err instanceof SamplingError) return { jsonrpc: "2.0", id, error: { code: err.code, message: err.message, data: err.data } };
    return { jsonrpc: "2.0", id, error: { code: -32603, message: `Tool execution failed: ${err.message}` } };
  }
}

async function handleMessage(line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    writeFrame({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  // A reply from the host to one of our sampling requests.
  if (!("method" in msg)) {
    if (!dispatchResponse(msg)) process.stderr.write(`⚠️  unmatched response id=${JSON.stringify(msg.id)}\n`);
    return;
  }
  const { method, id } = msg;
  const params = msg.params || {};
  let resp;
  switch (method) {
    case "initialize":
      resp = handleInitialize(id, params);
      break;
    case "describe":
      resp = { jsonrpc: "2.0", id, result: MANIFEST };
      break;
    case "invoke":
      resp = await handleInvoke(id, params);
      break;
    case "health":
      resp = { jsonrpc: "2.0", id, result: { status: "ok", version: MANIFEST.version } };
      break;
    case "shutdown":
      resp = { jsonrpc: "2.0", id, result: { ok: true } };
      break;
    default:
      resp = { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
  }
  if (id != null) writeFrame(resp);
}

process.stderr.write("🔌 sampling-summarizer-node plugin started\n");
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  const trimmed = line.trim();
  if (!trimmed) return;
  // Fire and forget: invokes may run concurrently, each waiting on the host.
  handleMessage(trimmed).catch((err) => process.stderr.write(`handler error: ${err.stack || err}\n`));
});
rl.on("close", () => process.exit(0));
