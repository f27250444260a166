import assert from "node:assert/strict";
import { it } from "node:test";
import { generateCases } from "./fuzz-cases.js";

const tools = [{ name: "t", description: "", parameters: [{ name: "a", type: "string" as const }] }];

it("is reproducible by seed, different across seeds, and exactly N frames", () => {
  const a = generateCases(500, 1, tools).map((c) => c.line.toString());
  assert.deepEqual(
    a,
    generateCases(500, 1, tools).map((c) => c.line.toString()),
  );
  assert.notDeepEqual(
    a,
    generateCases(500, 2, tools).map((c) => c.line.toString()),
  );
  assert.equal(generateCases(123, 5, []).length, 123);
});

it("expects -32700 only for lines that are not JSON, and -32600 id null only for non-objects or bad ids", () => {
  for (const c of generateCases(2000, 9, tools)) {
    const text = c.line.toString();
    let parsed: unknown;
    let ok = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      ok = false;
    }
    if (c.expect.kind === "null" && c.expect.code === -32700)
      assert.ok(!ok || c.label === "invalid UTF-8", `${c.label}: ${text}`);
    if (c.expect.kind === "null" && c.expect.code === -32600)
      assert.ok(
        ok &&
          (typeof parsed !== "object" ||
            parsed === null ||
            Array.isArray(parsed) ||
            !["string", "number"].includes(typeof (parsed as { id?: unknown }).id)),
        text,
      );
    if (c.expect.kind === "answer")
      assert.equal(JSON.stringify((JSON.parse(text.trim()) as { id: unknown }).id), JSON.stringify(c.expect.id));
  }
});
