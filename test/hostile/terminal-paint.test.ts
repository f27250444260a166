/**
 * Plugin text is data: a plugin whose tool names, stderr and non-frame stdout hold escape
 * sequences (window title, clear screen, a carriage return that repaints a line as passed) cannot
 * reach the developer's terminal through `executa test` or `executa dev`; the same text shows up
 * visibly escaped. And a plugin that exits in the middle of a `dev --invoke` is one clear error.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { printable } from "../../src/common/term.js";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const dir = mkdtempSync(join(tmpdir(), "executa-paint-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const PAINT = "\x1b]0;pwned\x07\x1b[2J\r\x1b[32m✔ all checks passed\u202e";
writeFileSync(
  join(dir, "plugin.js"),
  `const PAINT = ${JSON.stringify(PAINT)};
const manifest = { name: "paint", display_name: "Paint" + PAINT, version: "1.0.0", description: "d", tools: [
  { name: "ok", description: "fine", parameters: [] },
  { name: "bad" + PAINT, description: "a name no host accepts", parameters: [{ name: "x" + PAINT, type: "string", description: "x" }] },
  { name: "die", description: "exits mid-invoke", parameters: [] },
] };
process.stderr.write("stderr " + PAINT + "\\n");
process.stdout.write("not a frame " + PAINT + "\\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
  if (m.method === "describe") answer(manifest);
  else if (m.method === "health") answer({ status: "ready" });
  else if (m.method === "invoke" && m.params.tool === "die") { process.stderr.write("dying " + PAINT + "\\n"); process.exit(3); }
  else if (m.method === "invoke") answer({ success: true, data: PAINT, duration_ms: 0 });
  else if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no " + m.method + PAINT } }) + "\\n");
});
`,
);

function executa(args: string[]) {
  const r = spawnSync(process.execPath, [EXECUTA, ...args, "--", "node", "plugin.js"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, CI: "true", NO_COLOR: "1" },
    timeout: 240_000,
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

function assertNoRawControl(out: string, what: string) {
  assert.doesNotMatch(
    out,
    /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/,
    `${what} wrote a raw control character:\n${JSON.stringify(out).slice(0, 2000)}`,
  );
}

test("printable shows control characters and bidi overrides, keeps newlines and tabs", () => {
  assert.equal(printable("a\x1b[2Jb\r\tc\nd\u202e\x07"), "a\\u001b[2Jb\\r\tc\nd\\u202e\\u0007");
  assert.deepEqual(JSON.parse(printable(JSON.stringify({ s: "\u202e\x7f" }))), { s: "\u202e\x7f" });
});

test("executa test: the human report carries the plugin's text escaped, never raw", { timeout: 300_000 }, () => {
  const r = executa(["test"]);
  assert.equal(r.code, 1, r.out);
  assertNoRawControl(r.out, "executa test");
  assert.match(r.out, /\\u001b\]0;pwned\\u0007/);
});

test("executa dev: one-shots and their logs carry the plugin's text escaped; a plugin that exits mid-invoke is one clear error", {
  timeout: 120_000,
}, () => {
  const describe = executa(["dev", "--describe"]);
  assert.equal(describe.code, 0, describe.out);
  assertNoRawControl(describe.out, "executa dev --describe");
  const died = executa(["dev", "--invoke", "die"]);
  assertNoRawControl(died.out, "executa dev --invoke die");
  assert.equal(died.code, 1, died.out);
  assert.match(died.out, /executa: error: the plugin exited during the invoke of die \(exit code 3\)/);
  assert.match(died.out, /hint: its last stderr: .*dying \\u001b\]0;pwned/);
  assert.doesNotMatch(died.out, /unexpected failure|this is a bug/);
});
