import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parse as parseYaml } from "yaml";
import { goString, jsonString, markdownText, pythonString, tomlString, yamlString } from "./escape.js";

const hostile: string[] = JSON.parse(readFileSync(new URL("../../../test/fixtures/hostile-strings.json", import.meta.url), "utf8"));
const python = spawnSync("python3", ["--version"]).status === 0;

function pythonEval(program: string): string {
  const run = spawnSync("python3", ["-c", program], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

test("JSON literals round-trip and never contain a raw < or line separator", () => {
  for (const text of hostile) {
    const literal = jsonString(text);
    assert.equal(JSON.parse(literal), text);
    assert.doesNotMatch(literal, /[<\u2028\u2029\n]/);
  }
});

test("YAML literals round-trip", () => {
  for (const text of hostile) assert.equal(parseYaml(`key: ${yamlString(text)}\n`).key, text);
});

test("Python literals round-trip through the Python parser", { skip: !python && "python3 is not installed" }, () => {
  const source = `import ast, json\nprint(json.dumps([${hostile.map(pythonString).join(", ")}]))`;
  assert.deepEqual(JSON.parse(pythonEval(source)), hostile);
});

test("TOML literals round-trip through tomllib", { skip: !python && "python3 is not installed" }, () => {
  const doc = hostile.map((t, i) => `k${i} = ${tomlString(t)}`).join("\n");
  const out = pythonEval(`import tomllib, json, sys\nprint(json.dumps(tomllib.loads(${pythonString(doc)})))`);
  assert.deepEqual(Object.values(JSON.parse(out)), hostile);
});

test("Go literals escape every character Go would reject or reinterpret", () => {
  for (const text of hostile) {
    const literal = goString(text);
    assert.match(literal, /^"(?:[^"\\\n\r\u0000-\u001f\u007f\ufeff]|\\.)*"$/u);
  }
  // Go accepts JSON-style escapes for these, so JSON.parse reads the literal back.
  for (const text of hostile) assert.equal(JSON.parse(goString(text).replace(/\\x([0-9a-f]{2})/g, "\\u00$1")), text);
});

test("Markdown text is one line with every ASCII punctuation mark escaped", () => {
  for (const text of hostile) {
    const md = markdownText(text);
    assert.doesNotMatch(md, /[\r\n]/);
    assert.doesNotMatch(md, /(?<!\\)[<>*_`[\]#|]/);
  }
});
