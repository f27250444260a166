import assert from "node:assert/strict";
import { it } from "node:test";
import { EventStream, MAX_BUFFERED_BYTES } from "./stream.js";

/** A client whose socket takes nothing: everything written stays buffered. */
function stalled() {
  const client = {
    writableLength: 0,
    destroyed: false,
    writeHead: () => client,
    write: (text: string) => ((client.writableLength += Buffer.byteLength(text)), true),
    end: () => client,
    destroy: () => ((client.destroyed = true), client),
    on: () => client,
  };
  return client;
}

it("drops a client that stopped reading instead of buffering for it without limit, and keeps serving the others", () => {
  const stream = new EventStream();
  const slow = stalled();
  const reading = { ...stalled(), write: () => true };
  stream.attach(slow as never, {});
  stream.attach(reading as never, {});
  const flood = { session: 1, dir: "stderr", text: "x".repeat(64 * 1024), bytes: 65536 } as const;
  for (let n = 1; n <= 2000; n++) {
    stream.send("trace", [{ ...flood, n, t: 0 }]);
    stream.flush();
  }
  assert.equal(slow.destroyed, true);
  assert.ok(slow.writableLength <= MAX_BUFFERED_BYTES + 128 * 1024, `${slow.writableLength} bytes were buffered`);
  assert.equal(stream.size, 1, "the reading client stays");
  stream.close();
});
