import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { it } from "node:test";
import type { ToolDefinition } from "../protocol/index.js";
import { complete, runRepl } from "./repl.js";
import type { Workbench } from "./workbench.js";

const tools: ToolDefinition[] = [
  {
    name: "text_stats",
    description: "",
    parameters: [
      { name: "text", type: "string" },
      { name: "top", type: "integer" },
    ],
  },
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

/** A stream readline takes for a terminal: keys in, screen out. */
function fakeTty(): PassThrough & { isTTY: true; columns: number; setRawMode(): void } {
  return Object.assign(new PassThrough(), { isTTY: true as const, columns: 80, setRawMode: () => undefined });
}

it("Ctrl-C clears a half-typed line; Ctrl-C on an empty line quits", async () => {
  const input = fakeTty();
  const output = fakeTty();
  let screen = "";
  output.on("data", (chunk: Buffer) => (screen += chunk.toString()));
  let quit = false;
  const workbench = { tools: [], manifest: { name: "demo" } } as unknown as Workbench;
  const repl = runRepl(workbench, { input, output, terminal: true }).then(() => (quit = true));
  const type = async (keys: string) => {
    input.write(keys);
    await new Promise((r) => setTimeout(r, 30));
  };
  await type("descr");
  await type("\x03");
  assert.equal(quit, false, "one Ctrl-C on a half-typed line must not quit");
  await type("help\r");
  assert.match(screen, /commands:/, "the line typed after Ctrl-C is read without the cleared text");
  assert.doesNotMatch(screen, /unknown command/);
  await type("\x03");
  await repl;
  assert.equal(quit, true);
});
