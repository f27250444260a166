import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LineSplitter, type OversizeLine } from "./lines.js";

describe("LineSplitter", () => {
  it("splits lines across chunks, keeps big lines whole, and flushes the rest", () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l.toString()));
    s.push(Buffer.from("ab"));
    s.push(Buffer.from("c\nd\n\ne"));
    const big = "x".repeat(3 * 1024 * 1024);
    s.push(Buffer.from(big.slice(0, 1000)));
    s.push(Buffer.from(big.slice(1000) + "\nf"));
    assert.deepEqual(
      lines.map((l) => (l.length > 20 ? l.length : l)),
      ["abc", "d", "", 3 * 1024 * 1024 + 1],
    );
    assert.equal(s.flush()?.toString(), "f");
  });

  it("cuts a line over the limit without holding it, reports its size and head, and reads on", () => {
    const lines: string[] = [];
    const cut: OversizeLine[] = [];
    const s = new LineSplitter((l) => lines.push(l.toString()), { maxBytes: 10, onOversize: (o) => cut.push(o) });
    s.push(Buffer.from("0123456789\n")); // exactly the limit
    s.push(Buffer.from("0123456789\r\n")); // the limit and a CR
    s.push(Buffer.from("head-of-a-long"));
    for (let i = 0; i < 100; i++) s.push(Buffer.alloc(1000, "x"));
    assert.ok(s.partialBytes > 100_000);
    s.push(Buffer.from("tail\nnext\n"));
    s.push(Buffer.from("0123456789AB\nlast"));
    assert.deepEqual(lines, ["0123456789", "0123456789\r", "next"]);
    assert.deepEqual(
      cut.map((c) => [c.bytes, c.head.toString().slice(0, 14), c.ended]),
      [
        [14 + 100_000 + 4, "head-of-a-long", true],
        [12, "0123456789AB", true],
      ],
    );
    s.push(Buffer.alloc(50, "y"));
    assert.equal(s.flush(), undefined);
    assert.deepEqual([cut[2]!.bytes, cut[2]!.ended], [54, false]);
  });
});
