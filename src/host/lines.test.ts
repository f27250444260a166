import assert from "node:assert/strict";
import { it } from "node:test";
import { LineSplitter } from "./lines.js";

it("splits lines across chunks, keeps big lines whole, and flushes the rest", () => {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l.toString()));
  s.push(Buffer.from("ab"));
  s.push(Buffer.from("c\nd\n\ne"));
  const big = "x".repeat(3 * 1024 * 1024);
  s.push(Buffer.from(big.slice(0, 1000)));
  s.push(Buffer.from(big.slice(1000) + "\nf"));
  assert.deepEqual(lines.map((l) => l.length > 20 ? l.length : l), ["abc", "d", "", 3 * 1024 * 1024 + 1]);
  assert.equal(s.flush()?.toString(), "f");
});
