import assert from "node:assert/strict";
import { test } from "node:test";
import { validateManifest } from "./validate.js";

const VALID = {
  name: "tool-dev-demo",
  display_name: "Demo",
  version: "1.2.3-beta.1+build.5",
  description: "A demo.",
  tools: [
    {
      name: "t",
      description: "T.",
      timeout: 5,
      parameters: [{ name: "p", type: "string", description: "P.", required: true }],
    },
  ],
  credentials: [{ name: "API_KEY", display_name: "API key" }],
  host_capabilities: ["llm.sample", "aps.kv"],
  runtime: { type: "node" },
};

function withChange(path: (m: any) => void): unknown {
  const m = structuredClone(VALID) as any;
  path(m);
  return m;
}

function messages(manifest: unknown, severity: "error" | "warning" = "error"): string[] {
  return validateManifest(manifest)
    .filter((d) => d.severity === severity)
    .map((d) => `${d.path}: ${d.message}`);
}

test("a valid manifest has no diagnostics", () => {
  assert.deepEqual(validateManifest(VALID), []);
});

const ERRORS: [string, (m: any) => void, string][] = [
  ["not an object", () => undefined, "$: the manifest must be a JSON object"],
  ["semver", (m) => (m.version = "1.0"), "$.version: version '1.0' is not SemVer"],
  ["no tools", (m) => (m.tools = []), "$.tools: the manifest declares no tools"],
  ["duplicate tool", (m) => m.tools.push(structuredClone(m.tools[0])), "$.tools[1].name: tool name 't' is used twice"],
  ["tool name pattern", (m) => (m.tools[0].name = "9x"), "$.tools[0].name: tool name '9x' does not match"],
  ["tool name length", (m) => (m.tools[0].name = "a".repeat(65)), "does not match"],
  [
    "empty tool description",
    (m) => (m.tools[0].description = " "),
    "$.tools[0].description: tool 't' has no description",
  ],
  ["no manifest description", (m) => delete m.description, "$.description: the manifest needs a description"],
  ["no name", (m) => delete m.name, "$.name: the manifest needs a name"],
  [
    "parameter type",
    (m) => (m.tools[0].parameters[0].type = "float"),
    "$.tools[0].parameters[0].type: type must be one of string, integer, number, boolean, array, object",
  ],
  [
    "array without items",
    (m) => (m.tools[0].parameters[0].type = "array"),
    "$.tools[0].parameters[0]: an array parameter needs `items`",
  ],
  [
    "bad items type",
    (m) => Object.assign(m.tools[0].parameters[0], { type: "array", items: { type: "str" } }),
    "$.tools[0].parameters[0].items.type: items.type must be one of",
  ],
  [
    "items and items_type disagree",
    (m) => Object.assign(m.tools[0].parameters[0], { type: "array", items: { type: "string" }, items_type: "integer" }),
    "disagree",
  ],
  [
    "enum type",
    (m) => (m.tools[0].parameters[0].enum = ["a", 1]),
    "$.tools[0].parameters[0].enum[1]: enum value 1 is not of type string",
  ],
  ["enum empty", (m) => (m.tools[0].parameters[0].enum = []), "enum must be a non-empty list"],
  ["enum duplicate", (m) => (m.tools[0].parameters[0].enum = ["a", "a"]), "appears twice"],
  [
    "default type",
    (m) => Object.assign(m.tools[0].parameters[0], { type: "integer", required: false, default: 1.5 }),
    "$.tools[0].parameters[0].default: default 1.5 is not of type integer (it is number)",
  ],
  [
    "default not in enum",
    (m) => Object.assign(m.tools[0].parameters[0], { required: false, enum: ["a"], default: "b" }),
    "is not one of the enum values",
  ],
  [
    "default item type",
    (m) =>
      Object.assign(m.tools[0].parameters[0], {
        type: "array",
        items: { type: "string" },
        required: false,
        default: [1],
      }),
    "default item 1 is not of the item type string",
  ],
  [
    "required null default",
    (m) => (m.tools[0].parameters[0].default = null),
    "a required parameter cannot default to null",
  ],
  [
    "credential case",
    (m) => (m.credentials[0].name = "apiKey"),
    '$.credentials[0].name: credential name "apiKey" must be UPPER_SNAKE_CASE',
  ],
  [
    "credential as parameter",
    (m) => (m.tools[0].parameters[0].name = "api_key"),
    "$.tools[0].parameters[0].name: parameter 'api_key' is also the credential API_KEY",
  ],
  [
    "unknown capability",
    (m) => m.host_capabilities.push("llm.telepathy"),
    '$.host_capabilities[2]: unknown host capability "llm.telepathy"',
  ],
  [
    "capability off the allow-list",
    (m) => m.host_capabilities.push("storage.user"),
    "not on the platform's allow-list",
  ],
  [
    "input_schema",
    (m) => (m.tools[0].input_schema = { type: "object" }),
    "$.tools[0].input_schema: MCP-style input_schema is not read by the host",
  ],
  ["timeout", (m) => (m.tools[0].timeout = 0), "$.tools[0].timeout: timeout must be a whole number of seconds above 0"],
  [
    "duplicate parameter",
    (m) => m.tools[0].parameters.push(structuredClone(m.tools[0].parameters[0])),
    "parameter 'p' appears twice",
  ],
];

for (const [name, change, expected] of ERRORS) {
  test(`validation error: ${name}`, () => {
    const manifest = name === "not an object" ? "nope" : withChange(change);
    const found = messages(manifest);
    assert.ok(
      found.some((m) => m.includes(expected)),
      `expected "${expected}" in ${JSON.stringify(found)}`,
    );
  });
}

const WARNINGS: [string, (m: any) => void, string][] = [
  [
    "missing parameter description",
    (m) => delete m.tools[0].parameters[0].description,
    "$.tools[0].parameters[0].description: parameter 'p' of tool 't' has no description",
  ],
  ["no display_name", (m) => delete m.display_name, "$.display_name: no display_name"],
  ["unknown runtime type", (m) => (m.runtime.type = "deno"), '$.runtime.type: runtime.type "deno" is none of'],
  ["required with default", (m) => (m.tools[0].parameters[0].default = "x"), "has a default, which is never used"],
  ["credential display_name", (m) => delete m.credentials[0].display_name, "credential API_KEY has no display_name"],
  ["unknown field", (m) => (m.tool_id = "x"), "$.tool_id: unknown manifest field 'tool_id'"],
];

for (const [name, change, expected] of WARNINGS) {
  test(`validation warning: ${name}`, () => {
    const m = withChange(change);
    assert.ok(
      messages(m, "warning").some((x) => x.includes(expected)),
      JSON.stringify(messages(m, "warning")),
    );
    assert.deepEqual(messages(m, "error"), []);
  });
}
