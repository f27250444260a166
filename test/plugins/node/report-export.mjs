#!/usr/bin/env node
// report-export: renders a sales report as CSV and returns it inline, whatever its size.
// Written like a plugin that grew: fine with ten rows, but its default report is about 5 MiB, over
// the platform's 4 MiB result limit, where it should upload the file (host/uploadFile or APS
// files) and return a reference instead.
import readline from "node:readline";

const MANIFEST = {
  name: "report-export",
  display_name: "Report Export",
  version: "1.4.0",
  description: "Exports the sales report as CSV.",
  tools: [
    {
      name: "export_report",
      description: "Render the sales report as CSV text.",
      parameters: [{ name: "rows", type: "integer", description: "How many rows (default all 60000)", required: false, default: 60000 }],
    },
  ],
};

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

function csv(rows) {
  const lines = ["date,region,product,units,revenue,notes"];
  for (let i = 0; i < rows; i++) lines.push(`2026-01-${String((i % 28) + 1).padStart(2, "0")},region-${i % 7},product-${i % 113},${i % 50},${(i * 7.31).toFixed(2)},"row ${i} of the quarterly sales export"`);
  return lines.join("\n");
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg) || typeof msg.method !== "string") {
    return send({ jsonrpc: "2.0", id: msg?.id ?? null, error: { code: -32600, message: "Invalid Request" } });
  }
  const { id, method, params } = msg;
  if (id === undefined) return;
  if (method === "describe") return send({ jsonrpc: "2.0", id, result: MANIFEST });
  if (method === "health") return send({ jsonrpc: "2.0", id, result: { status: "ready" } });
  if (method === "invoke") {
    if (params?.tool !== "export_report") return send({ jsonrpc: "2.0", id, error: { code: -32601, message: `unknown tool: ${params?.tool}` } });
    const rows = params.arguments?.rows ?? 60000;
    if (!Number.isInteger(rows)) return send({ jsonrpc: "2.0", id, error: { code: -32602, message: "rows must be an integer" } });
    return send({ jsonrpc: "2.0", id, result: { success: true, data: { filename: "sales.csv", csv: csv(Math.min(Math.max(rows, 0), 60000)) } } });
  }
  send({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
});
process.on("SIGTERM", () => process.exit(0));
