#!/usr/bin/env node
// dice-roller: rolls dice. Unusual but right: a JSON array on one line is treated as a batch and
// every element is answered on its own line (scalars and non-objects get -32600 with id null).
import { randomInt } from "node:crypto";
import { createInterface } from "node:readline";

const MANIFEST = {
  name: "dice-roller",
  display_name: "Dice Roller",
  version: "3.0.0",
  description: "Rolls dice in standard notation (2d6+1).",
  author: "tabletop-tools",
  tools: [
    {
      name: "roll",
      description: "Roll dice given in NdM+K notation.",
      parameters: [
        { name: "notation", type: "string", description: "Dice notation such as 2d6+1", required: false, default: "1d20" },
        { name: "times", type: "integer", description: "How many rolls", required: false, default: 1 },
      ],
    },
  ],
  runtime: { type: "node", min_version: "20.0.0" },
};

const write = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
const error = (id, code, message) => ({ jsonrpc: "2.0", id, error: { code, message } });

function roll(args) {
  const m = /^(\d{1,3})d(\d{1,4})([+-]\d+)?$/.exec(String(args.notation ?? "1d20").replace(/\s+/g, ""));
  if (!m) return { success: false, error: `cannot read dice notation ${JSON.stringify(args.notation)}` };
  const times = Number.isInteger(args.times) && args.times > 0 ? Math.min(args.times, 100) : 1;
  const [count, sides, bonus] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  const rolls = Array.from({ length: times }, () => Array.from({ length: count }, () => randomInt(1, sides + 1)).reduce((a, b) => a + b, 0) + bonus);
  return { success: true, data: { notation: `${count}d${sides}${bonus ? (bonus > 0 ? `+${bonus}` : bonus) : ""}`, rolls } };
}

/** The answer to one request object, or undefined for a notification. */
function answer(msg) {
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return error(null, -32600, "Invalid Request");
  const notification = !("id" in msg);
  if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string") return notification ? undefined : error(msg.id ?? null, -32600, "Invalid Request");
  if (notification) return undefined;
  const ok = (result) => ({ jsonrpc: "2.0", id: msg.id, result });
  switch (msg.method) {
    case "describe":
      return ok(MANIFEST);
    case "health":
      return ok({ status: "ready", message: "", details: {} });
    case "invoke": {
      const { tool, arguments: args = {} } = msg.params ?? {};
      if (tool !== "roll") return error(msg.id, -32601, `Unknown tool: ${tool}`);
      if (typeof args !== "object" || args === null || Array.isArray(args)) return error(msg.id, -32602, "arguments must be an object");
      if (args.notation !== undefined && typeof args.notation !== "string") return error(msg.id, -32602, "notation must be a string");
      if (args.times !== undefined && !Number.isInteger(args.times)) return error(msg.id, -32602, "times must be an integer");
      return ok(roll(args));
    }
    default:
      return error(msg.id, -32601, `Method not found: ${msg.method.slice(0, 80)}`);
  }
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  if (!line.trim()) return;
  let parsed;
  try {
    parsed = JSON.parse(line);
  } catch {
    return write(error(null, -32700, "Parse error"));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return write(error(null, -32600, "empty batch"));
    for (const element of parsed) {
      const a = answer(element);
      if (a) write(a);
    }
    return;
  }
  const a = answer(parsed);
  if (a) write(a);
});
process.on("SIGTERM", () => process.exit(0));
