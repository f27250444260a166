/** `executa manifest` end to end: write, --check exit codes, --json, --strict, --from-plugin, --sync-version. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { tsProject, writeProject, executaJson } from "./helpers.js";

const BIN = join(PACKAGE_ROOT, "bin", "executa.js");

function executa(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "manifest", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const TOOLS = `import type { Integer } from "./executa/index.js";
/**
 * Add two numbers.
 * @tool
 */
export function add(args: {
  /** The first. */
  a: Integer;
  /** The second. */
  b?: Integer;
}) { return args.a + (args.b ?? 0); }
`;

test("write, then --check: in sync (0), drift (1), missing (1), non-canonical (1), generation error (2)", () => {
  const dir = tsProject({ "src/tools.ts": TOOLS });
  const write = executa(dir);
  assert.equal(write.code, 0, write.stderr);
  assert.match(write.stdout, /wrote manifest\.json, src\/executa\.bindings\.ts \(1 tools\)/);
  const manifest = readFileSync(join(dir, "manifest.json"), "utf8");
  assert.ok(manifest.endsWith("}\n") && !manifest.includes("\r"));

  assert.equal(executa(dir, "--check").code, 0);

  writeFileSync(
    join(dir, "src/tools.ts"),
    TOOLS.replace("b?: Integer", "b: number").replace("The first.", "The first number."),
  );
  const drift = executa(dir, "--check");
  assert.equal(drift.code, 1);
  assert.match(
    drift.stdout,
    /manifest\.json and src\/executa\.bindings\.ts is out of date|manifest\.json is out of date/,
  );
  assert.match(drift.stdout, /tool 'add': parameter 'a': description "The first\." -> "The first number\."/);
  assert.match(drift.stdout, /tool 'add': parameter 'b': type "integer" -> "number"/);
  assert.match(drift.stdout, /tool 'add': parameter 'b': required false -> true/);
  assert.match(drift.stdout, /^--- a\/manifest\.json\n\+\+\+ b\/manifest\.json\n@@ /m);
  assert.match(drift.stdout, /^-\s+"type": "integer",$/m);
  assert.match(drift.stdout, /To fix it, run: executa manifest\n$/);
  assert.equal(readFileSync(join(dir, "manifest.json"), "utf8"), manifest, "--check writes nothing");

  const json = JSON.parse(executa(dir, "--check", "--json").stdout) as {
    status: string;
    check: string;
    changes: { kind: string }[];
    diagnostics: unknown[];
  };
  assert.equal(json.status, "failed");
  assert.equal(json.check, "drift");
  assert.deepEqual(
    json.changes.map((c) => c.kind),
    ["description-changed", "type-changed", "required-changed"],
  );
  assert.deepEqual(json.diagnostics, []);

  writeFileSync(join(dir, "src/tools.ts"), TOOLS);
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(JSON.parse(manifest)));
  const formatting = executa(dir, "--check", "--json");
  assert.equal(formatting.code, 1);
  assert.equal(JSON.parse(formatting.stdout).check, "non-canonical");

  rmSync(join(dir, "manifest.json"));
  const missing = executa(dir, "--check");
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /manifest\.json is missing/);

  writeFileSync(join(dir, "src/tools.ts"), TOOLS.replace("a: Integer", "a: Date"));
  const broken = executa(dir, "--check");
  assert.equal(broken.code, 2);
  assert.match(
    broken.stderr,
    /src\/tools\.ts:8:3: error: parameter 'a' of tool 'add': Date has no manifest type \(use string \(ISO-8601\) instead of Date\)/,
  );
  const brokenWrite = executa(dir);
  assert.equal(brokenWrite.code, 2);
  assert.match(brokenWrite.stderr, /manifest\.json was not written/);
});

test("--strict turns warnings into errors", () => {
  const dir = tsProject({ "src/tools.ts": TOOLS.replace("  /** The second. */\n", "") });
  assert.equal(executa(dir).code, 0);
  const strict = executa(dir, "--strict", "--check");
  assert.equal(strict.code, 2);
  assert.match(strict.stderr, /src\/tools\.ts:\d+:\d+: error: parameter 'b' of tool 'add' has no description/);
});

test("a version mismatch between executa.json and package.json is an error; --sync-version fixes it", () => {
  const dir = tsProject({ "src/tools.ts": TOOLS });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fixture", version: "1.1.0", type: "module" }));
  const r = executa(dir);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /executa\.json: error: executa\.json version 1\.0\.0 differs from package\.json version 1\.1\.0/,
  );
  const synced = executa(dir, "--sync-version");
  assert.equal(synced.code, 0, synced.stderr);
  assert.equal(JSON.parse(readFileSync(join(dir, "executa.json"), "utf8")).version, "1.1.0");
  assert.equal(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).version, "1.1.0");
});

test("--sync-version edits executa.json as JSON: the top-level version, never a nested one, in the file's own indentation and key order", () => {
  const dir = tsProject({ "src/tools.ts": TOOLS });
  const nested = {
    distribution: { profiles: { binary: { version: "0.0.9", type: "binary" } } },
    tool_id: "tool-dev-fixture",
    type: "node",
    display_name: "Fixture",
    description: "A fixture plugin.",
    version: "1.0.0",
  };
  writeFileSync(join(dir, "executa.json"), JSON.stringify(nested, null, 4) + "\n");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fixture", version: "1.2.0", type: "module" }));
  const synced = executa(dir, "--sync-version");
  assert.equal(synced.code, 0, synced.stderr);
  const text = readFileSync(join(dir, "executa.json"), "utf8");
  assert.deepEqual(JSON.parse(text), { ...nested, version: "1.2.0" }, "only the top-level version changed");
  assert.equal(text, JSON.stringify({ ...nested, version: "1.2.0" }, null, 4) + "\n");
  assert.equal(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).version, "1.2.0");
});

test("--strict flags the placeholder descriptions add tool writes (TODO: describe ...), at their source", () => {
  const dir = tsProject({
    "src/tools.ts": TOOLS.replace("Add two numbers.", "TODO: describe what add does.").replace(
      "The second.",
      "TODO: describe b.",
    ),
  });
  const loose = executa(dir);
  assert.equal(loose.code, 0, loose.stderr);
  assert.match(loose.stderr, /warning: the tool add still has a placeholder description/);
  const strict = executa(dir, "--strict", "--check");
  assert.equal(strict.code, 2);
  assert.match(
    strict.stderr,
    /src\/tools\.ts:\d+:\d+: error: the tool add still has a placeholder description \("TODO: describe what add does\."\)/,
  );
  assert.match(
    strict.stderr,
    /src\/tools\.ts:\d+:\d+: error: the parameter b of add still has a placeholder description/,
  );
});

test("--from-plugin: describe from any running plugin, validated, written and checked", () => {
  const manifest = {
    name: "live",
    version: "2.0.0",
    description: "Live.",
    display_name: "Live",
    tools: [{ name: "ping", description: "Ping.", parameters: [] }],
  };
  const dir = writeProject({
    "plugin.mjs": `import { createInterface } from "node:readline";
console.error("plugin log line");
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  if (req.method === "describe") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: ${JSON.stringify(manifest)} }) + "\\n");
});
`,
    "silent.mjs": "setInterval(() => {}, 1000);\n",
  });
  const write = executa(dir, "--from-plugin", "--", process.execPath, "plugin.mjs");
  assert.equal(write.code, 0, write.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")), manifest);
  assert.equal(executa(dir, "--from-plugin", "--check", "--", process.execPath, "plugin.mjs").code, 0);
  writeFileSync(join(dir, "manifest.json"), "{}\n");
  assert.equal(executa(dir, "--from-plugin", "--check", "--", process.execPath, "plugin.mjs").code, 1);
  const none = executa(dir, "--from-plugin");
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /no plugin found in .*\n.*or pass the command after --/,
    "without --, the launch is detected from the folder, which names none here",
  );
  const silent = executa(dir, "--from-plugin", "--", process.execPath, "silent.mjs");
  assert.equal(silent.code, 2);
  assert.match(silent.stderr, /did not answer describe within 5 s/);
});

test("a project without a language is an error that says how to fix it", () => {
  const dir = writeProject({ "README.md": "nothing\n" });
  const r = executa(dir);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /executa: error: cannot tell the language of the project/);
  assert.match(r.stderr, /hint: set "type" in executa\.json/);
});

test("executa.json without tool_id: an error pointing at executa.json", () => {
  const dir = tsProject({ "src/tools.ts": TOOLS });
  writeFileSync(join(dir, "executa.json"), executaJson("node", { tool_id: undefined }));
  const r = executa(dir, "--json");
  assert.equal(r.code, 2);
  const out = JSON.parse(r.stdout) as { status: string; diagnostics: { file?: string; message: string }[] };
  assert.equal(out.status, "error");
  assert.ok(out.diagnostics.some((d) => d.file === "executa.json" && d.message === "executa.json has no tool_id"));
});
