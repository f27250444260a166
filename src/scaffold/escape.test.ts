import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parse as parseYaml } from "yaml";
import {
  commentLine,
  goString,
  goTagValue,
  jsonString,
  markdownText,
  pythonDocstringText,
  pythonString,
  pythonValue,
  tomlString,
  yamlString,
} from "./escape.js";

const hostile: string[] = JSON.parse(
  readFileSync(new URL("../../../test/fixtures/hostile-strings.json", import.meta.url), "utf8"),
);
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

test("comment lines: one line, no control character or BOM, no end of a JSDoc block", () => {
  for (const text of hostile) {
    const line = commentLine(text);
    assert.doesNotMatch(line, /[\p{Cc}\u2028\u2029\u0085\ufeff]|\*\/|\s{2}|^\s|\s$/u, JSON.stringify(line));
  }
  assert.equal(commentLine(" a\r\n\tb */ c\u2028d "), "a b * / c d");
});

test("Python docstring text and values read back through the Python parser", {
  skip: !python && "python3 is not installed",
}, () => {
  const values = [null, true, false, 0, -1.5, 1e21, 's"\\', ["a", 1, [true]], { 'k"': { n: null } }];
  const docstrings = hostile.map((t) => `"""${pythonDocstringText(commentLine(t))}"""`);
  const source = `import ast, json\nprint(json.dumps([[${values.map(pythonValue).join(", ")}], [${docstrings.join(", ")}]]))`;
  const [readValues, readDocstrings] = JSON.parse(pythonEval(source));
  assert.deepEqual(readValues, values);
  assert.deepEqual(readDocstrings, hostile.map(commentLine));
});

test("Go struct tag values hold no backquote and unquote to the text", () => {
  for (const text of hostile) {
    const value = goTagValue(text);
    assert.doesNotMatch(value, /`/);
    assert.equal(JSON.parse(value.replace(/\\x([0-9a-f]{2})/g, (_, h: string) => `\\u00${h}`)), text);
  }
});
