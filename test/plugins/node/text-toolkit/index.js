#!/usr/bin/env node
/**
 * Text Toolkit: an Executa plugin (v1) written the way the public Node example is.
 * Reads JSON-RPC requests line by line from stdin and answers on stdout.
 */
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const readline = require("readline");

const MAX_STDIO_MESSAGE_BYTES = 512 * 1024;

const MANIFEST = {
  name: "text-toolkit",
  display_name: "Text Toolkit",
  version: "1.2.0",
  description: "Counts words and transforms the case of text.",
  author: "Anna Developer",
  tools: [
    {
      name: "word_count",
      description: "Count the words, lines and characters of a text",
      parameters: [{ name: "text", type: "string", description: "The text to count", required: true }],
    },
    {
      name: "transform",
      description: "Transform text: upper / lower / reverse / title",
      parameters: [
        { name: "text", type: "string", description: "Input text", required: true },
        { name: "operation", type: "string", description: "One of upper, lower, reverse, title", required: true },
      ],
    },
  ],
  runtime: { type: "npm", min_version: "1.0.0" },
};

function wordCount(args) {
  const text = args.text || "";
  const words = text.split(/\s+/).filter(Boolean);
  return { words: words.length, lines: text.split("\n").length, characters: text.length };
}

function transform(args) {
  const text = args.text || "";
  switch (args.operation) {
    case "upper":
      return { result: text.toUpperCase() };
    case "lower":
      return { result: text.toLowerCase() };
    case "reverse":
      return { result: [...text].reverse().join("") };
    case "title":
      return { result: text.replace(/\b\w/g, (c) => c.toUpperCase()) };
    default:
      return { error: `Unknown operation: ${args.operation}. Available: upper, lower, reverse, title` };
  }
}

const TOOLS = { word_count: wordCount, transform };

function handleRequest(request) {
  const { method, id } = request;
  const params = request.params || {};
  switch (method) {
    case "describe":
      return { jsonrpc: "2.0", id, result: MANIFEST };
    case "health":
      return {
        jsonrpc: "2.0",
        id,
        result: { status: "healthy", timestamp: new Date().toISOString(), version: MANIFEST.version, tools_count: MANIFEST.tools.length },
      };
    case "invoke": {
      const toolName = params.tool;
      if (!toolName) return { jsonrpc: "2.0", id, error: { code: -32602, message: "Missing 'tool' in params" } };
      const fn = TOOLS[toolName];
      if (!fn) {
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `Unknown tool: ${toolName}`, data: { available_tools: Object.keys(TOOLS) } } };
      }
      try {
        const data = fn(params.arguments || {});
        return { jsonrpc: "2.0", id, result: { success: true, data, tool: toolName } };
      } catch (err) {
        return { jsonrpc: "2.0", id, error: { code: -32603, message: `Tool execution failed: ${err.message}` } };
      }
    }
    default:
      return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

// Large responses go through a temp file; the Agent reads it and deletes it.
function sendResponse(response) {
  const json = JSON.stringify(response);
  if (Buffer.byteLength(json) > MAX_STDIO_MESSAGE_BYTES) {
    const file = path.join(os.tmpdir(), `executa-resp-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
    fs.writeFileSync(file, json, { mode: 0o600 });
    process.stderr.write(`📦 response too large, file transport: ${file}\n`);
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: response.id, __file_transport: file }) + "\n");
    return;
  }
  process.stdout.write(json + "\n");
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
process.stderr.write("🔌 text-toolkit plugin started\n");

rl.on("line", (line) => {
  line = line.trim();
  if (!line) return;
  process.stderr.write(`← ${line.slice(0, 200)}\n`);
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    sendResponse({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  sendResponse(handleRequest(request));
  process.stderr.write("→ (sent)\n");
});
