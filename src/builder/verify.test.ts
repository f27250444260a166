import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { after, test } from "node:test";
import { canonicalManifestJson } from "../protocol/index.js";
import { pathWithoutNode, smoke, wineGap } from "./verify.js";

const dir = mkdtempSync(join(tmpdir(), "executa-verify-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const manifest = { name: "p", version: "1.0.0", description: "d", tools: [] };
const text = canonicalManifestJson(manifest);

function plugin(name: string, body: string): { command: string; args: string[] } {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, `const manifest = ${JSON.stringify(manifest)};\nconst send = (o) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...o }) + "\\n");\n${body}\n`);
  return { command: process.execPath, args: [file] };
}

const GOOD = `require("readline").createInterface({ input: process.stdin }).on("line", (l) => {
  const f = JSON.parse(l);
  const result = f.method === "describe" ? MANIFEST : f.method === "health" ? { status: "ready" } : { protocolVersion: "1.1" };
  send({ id: f.id, result });
});`;

test("a conforming plugin passes the smoke", async () => {
  const { failures } = await smoke(plugin("good", GOOD.replace("MANIFEST", "manifest")), text);
  assert.deepEqual(failures, []);
});

test("describe that differs from manifest.json fails", async () => {
  const { failures } = await smoke(plugin("drift", GOOD.replace("MANIFEST", '{ ...manifest, version: "2.0.0" }')), text);
  assert.ok(failures.some((f) => /byte for byte/.test(f)), failures.join("; "));
});

test("a stdout line that is not a JSON-RPC frame fails", async () => {
  const { failures } = await smoke(plugin("noisy", 'console.log("hello");\n' + GOOD.replace("MANIFEST", "manifest")), text);
  assert.ok(failures.some((f) => /not JSON/.test(f)), failures.join("; "));
});

test("a plugin that exits before EOF fails", async () => {
  const { failures } = await smoke(plugin("quitter", GOOD.replace("MANIFEST", "manifest").replace("send({ id: f.id, result });", "send({ id: f.id, result }); if (f.method === 'health') process.exit(0);")), text);
  assert.ok(failures.some((f) => /exited before stdin EOF/.test(f)), failures.join("; "));
});

test("PATH without node drops every folder that holds node", () => {
  const nodeDir = dirname(process.execPath);
  const path = pathWithoutNode([nodeDir, "/nonexistent"].join(delimiter));
  assert.equal(path, "/nonexistent");
});

test("Wine's own gaps are told apart from artifact failures", () => {
  assert.match(wineGap(["fatal error: bcryptprimitives.dll not found"]) ?? "", /bcryptprimitives/);
  assert.equal(wineGap(["describe does not equal manifest.json byte for byte"]), undefined);
});
