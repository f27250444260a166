import assert from "node:assert/strict";
import { it } from "node:test";
import type { ToolDefinition } from "../protocol/index.js";
import { complete } from "./repl.js";

const tools: ToolDefinition[] = [
  { name: "text_stats", description: "", parameters: [{ name: "text", type: "string" }, { name: "top", type: "integer" }] },
  { name: "sign_message", description: "" },
];
const wb = { tools, tool: (n: string) => tools.find((t) => t.name === n) };

it("completes commands, tool names, then unused parameter names", () => {
  assert.deepEqual(complete(wb, "inv"), [["invoke"], "inv"]);
  assert.deepEqual(complete(wb, "invoke te"), [["text_stats"], "te"]);
  assert.deepEqual(complete(wb, "invoke text_stats "), [["text=", "top=", "--args"], ""]);
  assert.deepEqual(complete(wb, "invoke text_stats text=hi t"), [["top="], "t"]);
  assert.deepEqual(complete(wb, "trace o"), [["on", "off"], "o"]);
});
