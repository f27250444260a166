import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../common/package-info.js";
import { bumpBetween, bumpFor, classifyChanges, compareWithRelease } from "./against.js";

interface P {
  name: string;
  type: string;
  description: string;
  required: boolean;
  [field: string]: unknown;
}
interface T {
  name: string;
  description: string;
  timeout: number;
  parameters: P[];
}
interface M {
  name: string;
  display_name: string;
  version: string;
  description: string;
  tools: T[];
  credentials: Array<{ name: string; required: boolean }>;
}

const param = (name: string, type: string, extra: Record<string, unknown> = {}): P => ({
  name,
  type,
  description: `The ${name}.`,
  required: false,
  ...extra,
});
const tool = (name: string, parameters: P[]): T => ({ name, description: `Does ${name}.`, timeout: 30, parameters });
const manifest = (tools: T[], credentials: M["credentials"]): M => ({
  name: "p",
  display_name: "P",
  version: "1.2.0",
  description: "d",
  tools,
  credentials,
});

const BASE = manifest(
  [
    tool("search", [
      param("query", "string", { required: true }),
      param("mode", "string", { enum: ["fast", "deep"] }),
      param("limit", "integer", { default: 10 }),
      param("ids", "array", { items: { type: "integer" } }),
    ]),
    tool("stats", [param("text", "string", { required: true })]),
  ],
  [{ name: "API_KEY", required: false }],
);

function classes(current: unknown): Array<[string, string]> {
  return classifyChanges(BASE, current).map((c) => [c.class, c.message]);
}

function edit(fn: (m: M) => void): M {
  const m = structuredClone(BASE);
  fn(m);
  return m;
}

/** One case per row of README's gate table: the edit that makes the change. */
const RULE_CASES: Record<string, (m: M) => void> = {
  "a tool removed": (m) => m.tools.pop(),
  "a tool renamed (same parameters, or same description)": (m) => (m.tools[1]!.name = "text_stats"),
  "a parameter removed": (m) => m.tools[0]!.parameters.splice(2, 1),
  "a parameter renamed (same schema, or same description)": (m) => (m.tools[0]!.parameters[2]!.name = "max_results"),
  "a required parameter added": (m) => m.tools[1]!.parameters.push(param("lang", "string", { required: true })),
  "an optional parameter made required": (m) => Object.assign(m.tools[0]!.parameters[2]!, { required: true }),
  "a parameter's type changed, other than integer to number": (m) =>
    Object.assign(m.tools[0]!.parameters[2]!, { type: "string" }),
  "a parameter's type widened from integer to number": (m) =>
    Object.assign(m.tools[0]!.parameters[2]!, { type: "number" }),
  "an array parameter's item type changed, other than integer to number": (m) =>
    Object.assign(m.tools[0]!.parameters[3]!, { items: { type: "string" } }),
  "an array parameter's item type widened from integer to number": (m) =>
    Object.assign(m.tools[0]!.parameters[3]!, { items: { type: "number" } }),
  "an enum value removed": (m) => Object.assign(m.tools[0]!.parameters[1]!, { enum: ["fast"] }),
  "an enum added to a parameter that took any value": (m) => Object.assign(m.tools[1]!.parameters[0]!, { enum: ["a"] }),
  "an optional parameter's default changed, added or removed": (m) =>
    Object.assign(m.tools[0]!.parameters[2]!, { default: 20 }),
  "a required parameter's default changed": (m) => Object.assign(m.tools[0]!.parameters[0]!, { default: "anna" }),
  "a required credential added": (m) => m.credentials.push({ name: "TOKEN", required: true }),
  "an optional credential made required": (m) => Object.assign(m.credentials[0]!, { required: true }),
  "a tool's timeout lowered": (m) => Object.assign(m.tools[0]!, { timeout: 10 }),
  "the plugin's name changed": (m) => (m.name = "q"),
  "a tool added": (m) => m.tools.push(tool("export", [param("format", "string")])),
  "an optional parameter added": (m) => m.tools[1]!.parameters.push(param("lang", "string")),
  "an enum value added": (m) => Object.assign(m.tools[0]!.parameters[1]!, { enum: ["fast", "deep", "exact"] }),
  "a required parameter made optional": (m) => Object.assign(m.tools[0]!.parameters[0]!, { required: false }),
  "a tool's timeout raised": (m) => Object.assign(m.tools[0]!, { timeout: 60 }),
  "an optional credential added": (m) => m.credentials.push({ name: "REGION", required: false }),
  "a credential removed": (m) => m.credentials.pop(),
  "a tool's or parameter's description changed": (m) => (m.tools[0]!.parameters[0]!.description = "What to look for."),
  "the plugin's display name, description, author, homepage, icon, category or license changed": (m) =>
    (m.display_name = "Plugin"),
  "tools or parameters reordered": (m) => m.tools.reverse(),
};

/** README's gate table: `| change | class |` rows under "### The breaking-change gate". */
function readmeRules(): Array<[string, string]> {
  const readme = readFileSync(join(PACKAGE_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### The breaking-change gate"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| change | class |")));
  return [...table.matchAll(/^\| (.+?) \| (breaking|compatible|patch) \|$/gm)].map((m) => [m[1]!, m[2]!]);
}

test("README's table of the gate's rules: every row is a case here, and the gate classes it as the table says", () => {
  const rules = readmeRules();
  assert.ok(rules.length >= 20, `the table was not found: ${rules.length} rows`);
  assert.deepEqual(
    rules.map(([change]) => change).sort(),
    Object.keys(RULE_CASES).sort(),
    "the README table and the cases list the same rows",
  );
  for (const [change, cls] of rules) {
    const found = classes(edit(RULE_CASES[change]!));
    assert.ok(found.length > 0, `${change}: no change found`);
    assert.deepEqual([...new Set(found.map(([c]) => c))], [cls], `${change}: ${JSON.stringify(found)}`);
  }
});

test("the gate's two conventional rules: a changed default breaks a caller that leaves it out; integer to number breaks none", () => {
  const defaultChanged = classes(edit((m) => Object.assign(m.tools[0]!.parameters[2]!, { default: 20 })));
  assert.deepEqual(defaultChanged, [["breaking", `tool 'search': parameter 'limit': default 10 -> 20`]]);
  const widened = classes(edit((m) => Object.assign(m.tools[0]!.parameters[2]!, { type: "number" })));
  assert.deepEqual(widened, [["compatible", `tool 'search': parameter 'limit': type "integer" -> "number"`]]);
  const narrowed = classifyChanges(
    edit((m) => Object.assign(m.tools[0]!.parameters[2]!, { type: "number" })),
    BASE,
  ).map((c) => c.class);
  assert.deepEqual(narrowed, ["breaking"], "number to integer narrows: a caller sending 1.5 breaks");
  const itemsAndMore = classes(
    edit((m) => Object.assign(m.tools[0]!.parameters[3]!, { items: { type: "number", enum: [1, 2] } })),
  );
  assert.deepEqual(
    itemsAndMore.map(([c]) => c),
    ["breaking"],
    "widened items that also gained an enum",
  );
});

test("patch: descriptions and display fields", () => {
  const changed = edit((m) => {
    m.tools[0]!.description = "Searches better.";
    m.tools[0]!.parameters[0]!.description = "What to look for.";
    m.display_name = "Plugin";
    m.description = "A better description.";
  });
  assert.deepEqual(
    classes(changed).map(([c]) => c),
    ["patch", "patch", "patch", "patch"],
  );
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
  const compare = (version: string, releasedVersion = "1.2.0") =>
    compareWithRelease({ against: "v1.2.0", released: BASE, current: removed, releasedVersion, version });
  const short = compare("1.3.0");
  assert.equal(short.ok, false);
  assert.equal(short.required_bump, "major");
  assert.equal(short.needs, "2.0.0");
  assert.equal(short.changes[0]!.needs, "2.0.0");
  assert.equal(compare("2.0.0").ok, true);
  assert.equal(compare("0.5.0", "0.4.0").ok, true, "0.x: minor for breaking changes");
  assert.equal(compare("0.4.1", "0.4.0").ok, false);
  assert.equal(
    compareWithRelease({ against: "v1.2.0", released: BASE, current: BASE, releasedVersion: "1.2.0", version: "1.2.0" })
      .ok,
    true,
    "no change, no bump",
  );
  assert.throws(() => compare("one"), /version "one" is not SemVer/);
});
