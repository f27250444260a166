import assert from "node:assert/strict";
import { test } from "node:test";
import { bumpBetween, bumpFor, classifyChanges, compareWithRelease } from "./against.js";

interface P { name: string; type: string; description: string; required: boolean; [field: string]: unknown }
interface T { name: string; description: string; timeout: number; parameters: P[] }
interface M { name: string; display_name: string; version: string; description: string; tools: T[]; credentials: Array<{ name: string; required: boolean }> }

const param = (name: string, type: string, extra: Record<string, unknown> = {}): P => ({ name, type, description: `The ${name}.`, required: false, ...extra });
const tool = (name: string, parameters: P[]): T => ({ name, description: `Does ${name}.`, timeout: 30, parameters });
const manifest = (tools: T[], credentials: M["credentials"]): M => ({ name: "p", display_name: "P", version: "1.2.0", description: "d", tools, credentials });

const BASE = manifest([
  tool("search", [param("query", "string", { required: true }), param("mode", "string", { enum: ["fast", "deep"] }), param("limit", "integer", { default: 10 })]),
  tool("stats", [param("text", "string", { required: true })]),
], [{ name: "API_KEY", required: false }]);

function classes(current: unknown): Array<[string, string]> {
  return classifyChanges(BASE, current).map((c) => [c.class, c.message]);
}

function edit(fn: (m: M) => void): M {
  const m = structuredClone(BASE);
  fn(m);
  return m;
}

test("breaking: a tool removed, a parameter removed, newly required, a type changed, an enum value removed, a required credential added, a timeout lowered", () => {
  const cases: Array<[string, (m: M) => void, RegExp]> = [
    ["tool removed", (m) => m.tools.pop(), /tool 'stats' removed/],
    ["parameter removed", (m) => m.tools[0]!.parameters.pop(), /parameter 'limit' removed/],
    ["newly required", (m) => Object.assign(m.tools[0]!.parameters[2]!, { required: true }), /parameter 'limit': required false -> true/],
    ["required parameter added", (m) => m.tools[1]!.parameters.push(param("lang", "string", { required: true })), /parameter 'lang' added/],
    ["type changed", (m) => Object.assign(m.tools[0]!.parameters[2]!, { type: "number" }), /limit': type "integer" -> "number"/],
    ["enum value removed", (m) => Object.assign(m.tools[0]!.parameters[1]!, { enum: ["fast"] }), /mode': enum/],
    ["enum added where any value went", (m) => Object.assign(m.tools[1]!.parameters[0]!, { enum: ["a"] }), /text': enum/],
    ["required credential added", (m) => m.credentials.push({ name: "TOKEN", required: true }), /required credential 'TOKEN' added/],
    ["credential now required", (m) => Object.assign(m.credentials[0]!, { required: true }), /credential 'API_KEY' is now required/],
    ["timeout lowered", (m) => Object.assign(m.tools[0]!, { timeout: 10 }), /timeout 30 -> 10/],
  ];
  for (const [what, fn, message] of cases) {
    const found = classes(edit(fn));
    assert.equal(found.length, 1, `${what}: ${JSON.stringify(found)}`);
    assert.equal(found[0]![0], "breaking", what);
    assert.match(found[0]![1], message, what);
  }
});

test("compatible: a tool or optional parameter added, an enum value added, a timeout raised, a parameter made optional", () => {
  const cases: Array<[string, (m: M) => void]> = [
    ["tool added", (m) => m.tools.push(tool("export", [param("format", "string")]))],
    ["optional parameter added", (m) => m.tools[1]!.parameters.push(param("lang", "string"))],
    ["enum value added", (m) => Object.assign(m.tools[0]!.parameters[1]!, { enum: ["fast", "deep", "exact"] })],
    ["timeout raised", (m) => Object.assign(m.tools[0]!, { timeout: 60 })],
    ["made optional", (m) => Object.assign(m.tools[0]!.parameters[0]!, { required: false })],
    ["optional credential added", (m) => m.credentials.push({ name: "REGION", required: false })],
  ];
  for (const [what, fn] of cases) assert.deepEqual(classes(edit(fn)).map(([c]) => c), ["compatible"], what);
});

test("patch: descriptions and display fields", () => {
  const changed = edit((m) => {
    m.tools[0]!.description = "Searches better.";
    m.tools[0]!.parameters[0]!.description = "What to look for.";
    m.display_name = "Plugin";
    m.description = "A better description.";
  });
  assert.deepEqual(classes(changed).map(([c]) => c), ["patch", "patch", "patch", "patch"]);
  assert.deepEqual(classes(edit((m) => (m.version = "9.0.0"))), [], "the version itself is no change");
});

test("renames: a tool renamed (same parameters, or same description) and a parameter renamed are one breaking change each", () => {
  const renamedTool = edit((m) => (m.tools[1]!.name = "text_stats"));
  assert.deepEqual(classes(renamedTool), [["breaking", "tool 'stats' renamed to 'text_stats'"]]);
  const renamedAndChanged = edit((m) => {
    m.tools[1]!.name = "text_stats";
    m.tools[1]!.parameters[0]!.name = "body";
    m.tools[1]!.description = "Does stats.";
  });
  assert.deepEqual(classes(renamedAndChanged), [["breaking", "tool 'stats' renamed to 'text_stats'"]]);
  const renamedParam = edit((m) => (m.tools[0]!.parameters[2]!.name = "max_results"));
  assert.deepEqual(classes(renamedParam), [["breaking", "tool 'search': parameter 'limit' renamed to 'max_results'"]]);
});

test("the bump semver asks for, and the one the version carries", () => {
  assert.equal(bumpFor("breaking", "1.2.0"), "major");
  assert.equal(bumpFor("breaking", "0.4.0"), "minor", "while the major is 0, minor");
  assert.equal(bumpFor("compatible", "1.2.0"), "minor");
  assert.equal(bumpFor("patch", "1.2.0"), "patch");
  assert.equal(bumpBetween("1.2.0", "2.0.0"), "major");
  assert.equal(bumpBetween("1.2.0", "1.3.0"), "minor");
  assert.equal(bumpBetween("1.2.0", "1.2.1"), "patch");
  assert.equal(bumpBetween("1.2.0", "1.2.0"), "none");
  assert.equal(bumpBetween("1.2.0", "1.1.9"), "backwards");

  const removed = edit((m) => m.tools.pop());
  const compare = (version: string, releasedVersion = "1.2.0") => compareWithRelease({ against: "v1.2.0", released: BASE, current: removed, releasedVersion, version });
  const short = compare("1.3.0");
  assert.equal(short.ok, false);
  assert.equal(short.required_bump, "major");
  assert.equal(short.needs, "2.0.0");
  assert.equal(short.changes[0]!.needs, "2.0.0");
  assert.equal(compare("2.0.0").ok, true);
  assert.equal(compare("0.5.0", "0.4.0").ok, true, "0.x: minor for breaking changes");
  assert.equal(compare("0.4.1", "0.4.0").ok, false);
  assert.equal(compareWithRelease({ against: "v1.2.0", released: BASE, current: BASE, releasedVersion: "1.2.0", version: "1.2.0" }).ok, true, "no change, no bump");
  assert.throws(() => compare("one"), /version "one" is not SemVer/);
});
