import assert from "node:assert/strict";
import { it } from "node:test";
import type { ToolDefinition } from "../protocol/index.js";
import { argumentsFromWords, splitWords } from "./coerce.js";

const tool: ToolDefinition = {
  name: "t",
  description: "",
  parameters: [
    { name: "text", type: "string" },
    { name: "n", type: "integer" },
    { name: "x", type: "number" },
    { name: "b", type: "boolean" },
    { name: "tags", type: "array" },
    { name: "ns", type: "array", items: { type: "integer" } },
    { name: "o", type: "object" },
  ],
};

it("splits words with quotes and escapes", () => {
  assert.deepEqual(splitWords(`invoke t text="a b" o='{"k": 1}' x=\\ y`), [
    "invoke",
    "t",
    "text=a b",
    'o={"k": 1}',
    "x= y",
  ]);
  assert.throws(() => splitWords('a "b'), /unclosed/);
});

it("coerces each value by its parameter type", () => {
  assert.deepEqual(
    argumentsFromWords(tool, ["text=12", "n=3", "x=2.5", "b=no", "tags=a,b", "ns=1,2", 'o={"k":1}', "extra=true"]),
    {
      text: "12",
      n: 3,
      x: 2.5,
      b: false,
      tags: ["a", "b"],
      ns: [1, 2],
      o: { k: 1 },
      extra: true,
    },
  );
  assert.deepEqual(argumentsFromWords(tool, ["ns=[3, 4]"]), { ns: [3, 4] });
  assert.throws(() => argumentsFromWords(tool, ["n=1.5"]), /n is an integer/);
  assert.throws(() => argumentsFromWords(tool, ["b=maybe"]), /boolean/);
  assert.throws(() => argumentsFromWords(tool, ["text"]), /expected key=value/);
});
