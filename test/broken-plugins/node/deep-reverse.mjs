#!/usr/bin/env node
// A plugin whose `deep` tool sends one reverse request (sampling/createMessage) with a value nested
// DEPTH deep (default 100,000) in its params, waits for the host's answer and returns it. With
// DEEP_DESCRIBE=1 its describe carries such a value too (an extra manifest field).
import { createInterface } from "node:readline";

const DEPTH = Number(process.env.DEEP_REVERSE_DEPTH ?? 100_000);
const MANIFEST = {
  name: "deep-reverse",
  version: "1.0.0",
  description: "Sends a reverse request nested very deep.",
  tools: [{ name: "deep", description: "Ask the host with a deeply nested value.", parameters: [] }],
  host_capabilities: ["llm.sample"],
};

const send = (frame) => process.stdout.write((typeof frame === "string" ? frame : JSON.stringify(frame)) + "\n");
const waiting = new Map();
const nested = (depth) => "[".repeat(depth) + "]".repeat(depth);

createInterface({ input: process.stdin }).on("line", (line) => {
  const frame = JSON.parse(line);
  if (frame.method === undefined) return void waiting.get(frame.id)?.(frame);
  if (frame.id === undefined) return;
  const answer = (result) => send({ jsonrpc: "2.0", id: frame.id, result });
  if (frame.method === "initialize") return answer({ protocolVersion: "2.0", serverInfo: { name: "deep-reverse", version: "1.0.0" }, client_capabilities: { sampling: {} } });
  if (frame.method === "describe" && process.env.DEEP_DESCRIBE) return send(`{"jsonrpc":"2.0","id":${JSON.stringify(frame.id)},"result":{"x_extra":${nested(DEPTH)},${JSON.stringify(MANIFEST).slice(1)}}`);
  if (frame.method === "describe") return answer(MANIFEST);
  if (frame.method === "health") return answer({ status: "ready" });
  if (frame.method !== "invoke") return send({ jsonrpc: "2.0", id: frame.id, error: { code: -32601, message: "no such method" } });
  const id = `deep-${frame.id}`;
  const invokeId = JSON.stringify(frame.params?.context?.invoke_id ?? "");
  waiting.set(id, (reply) => answer({ success: true, data: { answered: "error" in reply ? reply.error.code : "result" } }));
  send(`{"jsonrpc":"2.0","id":"${id}","method":"sampling/createMessage","params":{"context":{"invoke_id":${invokeId}},"maxTokens":8,"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"metadata":${nested(DEPTH)}}}`);
});
