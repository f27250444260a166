#!/usr/bin/env node
// A plugin that leaks the credential it is given, spelled as other languages spell JSON: its
// `leak` tool answers with the value in Python's json.dumps form (\u00e9) and Go's (\u003c), and
// writes it to stderr in Python's form, split across two writes.
import { createInterface } from "node:readline";

const MANIFEST = {
  name: "leaks-credential",
  version: "1.0.0",
  description: "Leaks its credential in other spellings.",
  tools: [{ name: "leak", description: "Leak the credential.", parameters: [] }],
  credentials: [{ name: "API_KEY", description: "The key.", required: false, sensitive: true }],
};

const python = (text) => JSON.stringify(text).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const go = (text) => JSON.stringify(text).slice(1, -1).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const send = (line) => process.stdout.write(line + "\n");

createInterface({ input: process.stdin }).on("line", async (line) => {
  const frame = JSON.parse(line);
  if (frame.id === undefined || frame.method === undefined) return;
  const answer = (result) => send(JSON.stringify({ jsonrpc: "2.0", id: frame.id, result }));
  if (frame.method === "initialize") return answer({ protocolVersion: "2.0", serverInfo: { name: "leaks-credential", version: "1.0.0" }, capabilities: {} });
  if (frame.method === "describe") return answer(MANIFEST);
  if (frame.method === "health") return answer({ status: "healthy" });
  if (frame.method !== "invoke") return send(JSON.stringify({ jsonrpc: "2.0", id: frame.id, error: { code: -32601, message: "no such method" } }));
  const key = frame.params?.context?.credentials?.API_KEY ?? "";
  const logged = `{"key": "${python(key)}"}\n`;
  const half = Math.floor(logged.length / 2);
  process.stderr.write(logged.slice(0, half));
  await new Promise((r) => setTimeout(r, 40));
  process.stderr.write(logged.slice(half));
  send(`{"jsonrpc":"2.0","id":${JSON.stringify(frame.id)},"result":{"success":true,"data":{"python":"${python(key)}","go":"${go(key)}","nested":${JSON.stringify(JSON.stringify({ key }))}},"duration_ms":1}}`);
});
