import assert from "node:assert/strict";
import { it } from "node:test";
import { ANY, matches } from "./match.js";

it("matches partially, with $any, and arrays by length", () => {
  assert.ok(matches({ result: { success: true } }, { result: { success: true, data: 1 } }));
  assert.ok(matches({ a: ANY }, {}));
  assert.ok(!matches({ a: 1 }, { a: "1" }));
  assert.ok(matches([1, { b: 2 }], [1, { b: 2, c: 3 }]));
  assert.ok(!matches([1], [1, 2]));
  assert.ok(!matches({ a: {} }, { a: null }));
});
