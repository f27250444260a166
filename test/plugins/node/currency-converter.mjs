#!/usr/bin/env node
// currency-converter: converts amounts between currencies with a fixed rate table.
// Careful about almost everything, but it tells requests from notifications by `if (msg.id)`,
// so a request whose id is 0 is taken for a notification and never answered.
import readline from "node:readline";

const RATES = { EUR: 1, USD: 1.08, GBP: 0.85, JPY: 162.4, CHF: 0.96 };

const MANIFEST = {
  name: "currency-converter",
  display_name: "Currency Converter",
  version: "1.0.3",
  description: "Converts an amount from one currency to another using daily reference rates.",
  author: "fx-tools",
  tools: [
    {
      name: "convert",
      description: "Convert an amount between two currencies.",
      parameters: [
        { name: "amount", type: "number", description: "The amount to convert", required: true },
        { name: "from", type: "string", description: "ISO code of the source currency", required: false, default: "EUR", enum: Object.keys(RATES) },
        { name: "to", type: "string", description: "ISO code of the target currency", required: false, default: "USD", enum: Object.keys(RATES) },
      ],
    },
    {
      name: "list_currencies",
      description: "List the supported currency codes.",
      parameters: [],
    },
  ],
  runtime: { type: "node", min_version: "18.0.0" },
};

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");

function invoke(params) {
  const args = params.arguments || {};
  if (params.tool === "list_currencies") return { result: { success: true, data: { currencies: Object.keys(RATES) } } };
  if (params.tool !== "convert") return { error: { code: -32601, message: `Unknown tool: ${params.tool}` } };
  if (typeof args.amount !== "number") return { error: { code: -32602, message: "amount must be a number" } };
  const from = args.from ?? "EUR";
  const to = args.to ?? "USD";
  if (!(from in RATES) || !(to in RATES)) return { result: { success: false, error: `unsupported currency ${!(from in RATES) ? from : to}` } };
  const value = Math.round((args.amount / RATES[from]) * RATES[to] * 100) / 100;
  return { result: { success: true, data: { amount: args.amount, from, to, value } } };
}

function answer(msg) {
  switch (msg.method) {
    case "describe":
      return { result: MANIFEST };
    case "health":
      return { result: { status: "ready", message: "", details: { currencies: Object.keys(RATES).length } } };
    case "invoke":
      return invoke(msg.params || {});
    default:
      return { error: { code: -32601, message: "Method not found" } };
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg) || typeof msg.method !== "string") {
    send({ id: null, error: { code: -32600, message: "Invalid Request" } });
    return;
  }
  if (!msg.id) return; // notification: nothing to answer
  send({ id: msg.id, ...answer(msg) });
});
process.on("SIGTERM", () => {
  rl.close();
  process.exit(0);
});
