/** Unit tests of the tool: a plain function, called directly. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ToolError } from "../src/executa/index.js";
import { greet } from "../src/tools.js";

test("greet greets by name, with Hello unless told otherwise", () => {
  assert.deepEqual(greet({ name: "Ada" }), { message: "Hello, Ada!" });
  assert.deepEqual(greet({ name: "Grace", greeting: "Welcome" }), { message: "Welcome, Grace!" });
});

test("an empty name is a tool error", () => {
  assert.throws(() => greet({ name: " " }), new ToolError("name must not be empty"));
});
