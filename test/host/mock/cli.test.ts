/** `--mock FILE.jsonl` on executa test and executa dev: rules answer, unused rules are reported, bad files are errors. */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { executa, PLUGINS } from "../helpers.js";

const NODE_DIR = join(PLUGINS, "node");
const reference = ["--", process.execPath, "reference.mjs"];

function rulesFile(...rows: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "executa-mock-")), "rules.jsonl");
  writeFileSync(file, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return file;
}

const ROWS = [
  {
    ns: "llm",
    method: "complete",
    match: { promptIncludes: "weather" },
    result: { role: "assistant", content: { type: "text", text: "sunny" }, model: "mock", stopReason: "endTurn" },
  },
  { ns: "image", method: "generate", result: { images: [], model: "never-used" } },
];

describe("--mock", () => {
  it("executa dev answers from the rules and reports the rows nothing matched, in --json and on stderr", () => {
    const file = rulesFile(...ROWS);
    const r = executa([
      "dev",
      "--dir",
      NODE_DIR,
      "--invoke",
      "ask",
      "--args",
      '{"question": "the weather?"}',
      "--json",
      "--mock",
      file,
      ...reference,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      status: string;
      answer: { data: { answer: string } };
      mock: { rules: number; unused: { where: string; label: string; why: string }[] };
    };
    assert.equal(out.answer.data.answer, "sunny");
    assert.equal(out.mock.rules, 2);
    assert.deepEqual(
      out.mock.unused.map((u) => u.where),
      [`${file}:2`],
    );
    assert.match(out.mock.unused[0]!.why, /no image\/generate request/);
    assert.match(r.stderr, /warning: 1 of 2 mock rule\(s\) matched nothing the plugin asked for/);
    assert.match(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2: image\\.generate`));
  });

  it("executa test counts rules used by any of its sessions and keeps --sampling rules: working beside --mock", () => {
    const file = rulesFile(...ROWS);
    const legacy = rulesFile({
      method: "sampling/createMessage",
      result: { content: { type: "text", text: "legacy" } },
    });
    const r = executa([
      "test",
      "--json",
      "--only",
      "reverse.invoke-id",
      "--dir",
      NODE_DIR,
      "--mock",
      file,
      "--sampling",
      `rules:${legacy}`,
      ...reference,
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = JSON.parse(r.stdout) as { status: string; mock: { rules: number; unused: { where: string }[] } };
    assert.equal(out.status, "ok");
    assert.equal(out.mock.rules, 3);
    // The conformance invokes ask with a generated question: the fallback of the legacy file answers it.
    assert.deepEqual(
      out.mock.unused.map((u) => u.where),
      [`${file}:1`, `${file}:2`],
    );
  });

  it("stops with the line number of a malformed rule, one JSON error object with --json", () => {
    const file = rulesFile(ROWS[0], "{oops", ROWS[1]);
    const r = executa(["test", "--json", "--mock", file, ...reference], { cwd: NODE_DIR });
    assert.equal(r.code, 2);
    const out = JSON.parse(r.stdout) as { status: string; error: { message: string; hint: string } };
    assert.equal(out.status, "error");
    assert.match(out.error.message, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2: not JSON`));
    assert.match(out.error.hint, /one rule per line/);
    const missing = executa(["dev", "--describe", "--mock", join(tmpdir(), "no-such-rules.jsonl"), ...reference], {
      cwd: NODE_DIR,
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the rules file .*no-such-rules\.jsonl/);
  });
});
