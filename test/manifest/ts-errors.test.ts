/** Every TypeScript error path: the message, and the file:line where it points. The enum-order trap. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateManifest } from "../../src/manifest/index.js";
import type { Diagnostic } from "../../src/protocol/index.js";
import { tsProject } from "./helpers.js";

const tool = (name: string, body: string, doc = `The ${name} tool.`) =>
  `/**\n * ${doc}\n * @tool\n */\nexport function ${name}${body} { return null; }\n`;
const args = (type: string, extra = "") => `(args: {\n  /** d${extra} */\n  v: ${type}; // MARK\n})`;

/** [message substring, source of the offending tool, severity]; the diagnostic must point at the line marked MARK (or the tool). */
const CASES: Record<string, [string, string, ("error" | "warning")?]> = {
  not_exported: [
    "which is not exported",
    "/**\n * Hidden.\n * @tool\n */\nfunction not_exported() { return 1; } // MARK\n",
  ],
  empty_description: [
    "has no description",
    "/**\n * @tool\n */\nexport function empty_description() { return 1; } // MARK\n",
  ],
  any: ["any has no manifest type", tool("any_type", args("any"))],
  unknown: ["unknown has no manifest type", tool("unknown_type", args("unknown"))],
  never: ["never has no manifest type", tool("never_type", args("never"))],
  function: ["a function has no manifest type", tool("function_type", args("() => void"))],
  symbol: ["symbol has no manifest type", tool("symbol_type", args("symbol"))],
  bigint: ["bigint has no manifest type", tool("bigint_type", args("bigint"))],
  date: ["Date has no manifest type", tool("date_type", args("Date"))],
  map: ["Map has no manifest type", tool("map_type", args("Map<string, string>"))],
  mixed_union: ["a union of string | number", tool("mixed_union", args("string | number"))],
  mixed_tuple: ["the mixed tuple [string, number]", tool("mixed_tuple", args("[string, number]"))],
  array_of_any: ["items of any has no manifest type", tool("array_any", args("any[]"))],
  misspelled_type: ["parameter 'v' of tool 'misspelled': cannot find name 'Strng'", tool("misspelled", args("Strng"))],
  misspelled_optional: [
    "cannot find name 'Strng'",
    tool("misspelled_optional", "(args: {\n  /** d */\n  v?: Strng; // MARK\n})"),
  ],
  misspelled_items: ["cannot find name 'Nmber'", tool("misspelled_items", args("Nmber[]"))],
  buffer_without_types: ["Buffer has no manifest type", tool("buffer_type", args("Buffer"))],
  default_not_json: ["@default of 'v' is not JSON", tool("bad_default", args("string", "\n   * @default lower"))],
  default_conflict: [
    "has two different defaults",
    `/**\n * Two defaults.\n * @tool\n */\nexport function default_conflict({ v = 1 }: {\n  /** d\n   * @default 2 */\n  v?: number; // MARK\n}) { return v; }\n`,
  ],
  non_literal_default: [
    "is not a JSON literal",
    `const N = 4;\n/**\n * Computed default.\n * @tool\n */\nexport function non_literal({ v = N * 2 }: {\n  /** d */\n  v?: number; // MARK\n}) { return v; }\n`,
    "warning",
  ],
  integer_on_string: [
    "@integer on 'v', which is not a number",
    tool("integer_string", args("string", "\n   * @integer")),
  ],
  bad_timeout: [
    "@timeout of tool 'bad_timeout' must be a whole number",
    "/**\n * Slow.\n * @tool\n * @timeout soon\n */\nexport function bad_timeout() { return 1; } // MARK\n",
  ],
  not_a_function: [
    "@tool must be on a function",
    "/**\n * Not a function.\n * @tool\n */\nexport const not_a_function = 42; // MARK\n",
  ],
  unannotated_args: [
    "the args object has no type annotation",
    "/**\n * Untyped.\n * @tool\n */\n// eslint-disable-next-line\nexport function unannotated({ a }) { return a; }\n",
  ],
  rest_parameter: [
    "a rest parameter cannot be a tool parameter",
    "/**\n * Rest.\n * @tool\n */\nexport function rest_param(...xs: string[]) { return xs; } // MARK\n",
  ],
  context_not_last: [
    "the ToolContext parameter must be the last one",
    "/**\n * Ctx first.\n * @tool\n */\nexport function ctx_first(ctx: ToolContext, a: string) { return a; } // MARK\n",
  ],
  duplicate_name: [
    "tool name 'twice' is used twice",
    tool("twice_a", "()", "First.").replace("@tool", "@tool twice") +
      tool("twice_b", "()", "Second.").replace("@tool", "@tool twice"),
  ],
  bad_tool_name: ["does not match", tool("bad_name", "()").replace("@tool", "@tool 9lives")],
  missing_param_description: [
    "has no description",
    `/**\n * Undocumented parameter.\n * @tool\n */\nexport function undocumented(args: {\n  v: string; // MARK\n}) { return args; }\n`.replace(
      " // MARK",
      "\n  // MARK",
    ),
    "warning",
  ],
  unknown_param_tag: [
    "@param nope matches no parameter",
    "/**\n * Positional.\n * @tool\n * @param nope - Not there. MARK\n */\nexport function stray_param(a: string) { return a; }\n",
    "warning",
  ],
};

const files: Record<string, string> = {};
for (const [name, [, source]] of Object.entries(CASES)) {
  files[`src/${name}.ts`] =
    `import type { ToolContext } from "./executa/index.js";\nexport type { ToolContext };\n${source}`;
}
const dir = tsProject(files);
const { diagnostics } = await generateManifest(dir);

function markedLine(source: string): number | undefined {
  const i = source.split("\n").findIndex((l) => l.includes("MARK"));
  return i === -1 ? undefined : i + 3; // two header lines
}

for (const [name, [message, source, severity = "error"]] of Object.entries(CASES)) {
  test(`ts error path: ${name}`, () => {
    const file = `src/${name}.ts`;
    const found = diagnostics.filter((d: Diagnostic) => d.file === file && d.message.includes(message));
    assert.equal(
      found.length >= 1,
      true,
      `expected "${message}" in ${file}; got ${JSON.stringify(diagnostics.filter((d) => d.file === file))}`,
    );
    const d = found[0]!;
    assert.equal(d.severity, severity);
    assert.ok(d.column! >= 1);
    const line = markedLine(source);
    if (line === undefined) {
      assert.match(
        source.split("\n")[d.line! - 3] ?? "",
        /export function/,
        `${name}: points at the tool's declaration`,
      );
    } else if (name !== "missing_param_description") {
      // The mark is on the declaration's line, or the line the property or tag sits on.
      assert.ok(
        Math.abs(d.line! - line) <= 1 || source.split("\n")[d.line! - 3]?.includes("export"),
        `${name}: line ${d.line}, marked ${line}`,
      );
    }
  });
}

test("error hints tell the fix (Date -> ISO-8601 string)", () => {
  const date = diagnostics.find((d) => d.file === "src/date.ts" && d.message.includes("Date"));
  assert.equal(date?.hint, "use string (ISO-8601) instead of Date");
});

test("enum-order trap: an earlier, unrelated tool mentions the same literal first", async () => {
  const trap = tsProject({
    "src/a_first.ts": `/**\n * Mentions "preserve" and "upper" before anyone else.\n * @tool\n */\nexport function a_first(args: {\n  /** d */\n  m: "preserve";\n  /** d */\n  n: "upper" | "preserve";\n}) { return args; }\n`,
    "src/b_second.ts": `/**\n * The real one.\n * @tool\n */\nexport function b_second(args: {\n  /** d */\n  letter_case: "lower" | "upper" | "preserve";\n  /** d */\n  list?: ("lower" | "upper" | "preserve")[];\n}) { return args; }\n`,
  });
  const { manifest, diagnostics: d } = await generateManifest(trap);
  assert.deepEqual(
    d.filter((x) => x.severity === "error"),
    [],
  );
  const params = manifest.tools.find((t) => t.name === "b_second")!.parameters!;
  assert.deepEqual(params[0]!.enum, ["lower", "upper", "preserve"]);
  assert.deepEqual(params[1]!.items, { type: "string", enum: ["lower", "upper", "preserve"] });
  assert.deepEqual(manifest.tools.find((t) => t.name === "a_first")!.parameters![1]!.enum, ["upper", "preserve"]);
});
