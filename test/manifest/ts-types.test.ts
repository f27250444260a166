/** The TypeScript type cases: each tool below is one row of the mapping, with its expected parameters. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateManifest } from "../../src/manifest/index.js";
import type { Parameter, ToolDefinition } from "../../src/protocol/index.js";
import { tsProject } from "./helpers.js";

const HEAD = `import type { Integer, ToolContext } from "./executa/index.js";\n`;

/** name -> [source of the tool, expected parameters (name, type, required and the rest)]. */
const CASES: Record<string, [string, Partial<Parameter>[]]> = {
  string: ["(args: { /** d */ s: string })", [{ name: "s", type: "string", required: true }]],
  template_literal: ["(args: { /** d */ id: `id-${string}` })", [{ name: "id", type: "string" }]],
  string_literal_union: [
    `(args: { /** d */ mode: "fast" | "slow" | "auto" })`,
    [{ name: "mode", type: "string", enum: ["fast", "slow", "auto"] }],
  ],
  string_enum: ["(args: { /** d */ c: Color })", [{ name: "c", type: "string", enum: ["red", "green", "blue"] }]],
  enum_member_union: [
    "(args: { /** d */ c: Color.Blue | Color.Red })",
    [{ name: "c", type: "string", enum: ["blue", "red"] }],
  ],
  keyof_interface: [
    "(args: { /** d */ field: keyof Person })",
    [{ name: "field", type: "string", enum: ["zname", "age", "email"] }],
  ],
  typeof_as_const_array: [
    "(args: { /** d */ size: (typeof SIZES)[number] })",
    [{ name: "size", type: "string", enum: ["small", "medium", "large"] }],
  ],
  as_const_object_values: [
    "(args: { /** d */ level: (typeof LEVELS)[keyof typeof LEVELS] })",
    [{ name: "level", type: "string", enum: ["low", "mid", "high"] }],
  ],
  number: ["(args: { /** d */ n: number })", [{ name: "n", type: "number" }]],
  integer_brand: ["(args: { /** d */ n: Integer })", [{ name: "n", type: "integer" }]],
  integer_tag: ["(args: { /** d\n * @integer */ n: number })", [{ name: "n", type: "integer" }]],
  int_literal_union: ["(args: { /** d */ n: 3 | 1 | 2 })", [{ name: "n", type: "integer", enum: [3, 1, 2] }]],
  float_literal_union: ["(args: { /** d */ n: 0.5 | 1.5 })", [{ name: "n", type: "number", enum: [0.5, 1.5] }]],
  numeric_enum: ["(args: { /** d */ p: Priority })", [{ name: "p", type: "integer", enum: [10, 20, 30] }]],
  boolean: ["(args: { /** d */ b: boolean })", [{ name: "b", type: "boolean" }]],
  array_brackets: ["(args: { /** d */ xs: string[] })", [{ name: "xs", type: "array", items: { type: "string" } }]],
  array_generic: ["(args: { /** d */ xs: Array<number> })", [{ name: "xs", type: "array", items: { type: "number" } }]],
  readonly_array: [
    "(args: { /** d */ xs: readonly Integer[] })",
    [{ name: "xs", type: "array", items: { type: "integer" } }],
  ],
  readonly_array_generic: [
    "(args: { /** d */ xs: ReadonlyArray<boolean> })",
    [{ name: "xs", type: "array", items: { type: "boolean" } }],
  ],
  tuple: ["(args: { /** d */ pair: [string, string] })", [{ name: "pair", type: "array", items: { type: "string" } }]],
  array_of_literals: [
    `(args: { /** d */ tags: ("b" | "a")[] })`,
    [{ name: "tags", type: "array", items: { type: "string", enum: ["b", "a"] } }],
  ],
  nested_array: [
    "(args: { /** d */ grid: number[][] })",
    [{ name: "grid", type: "array", items: { type: "array", items: { type: "number" } } }],
  ],
  object_literal: ["(args: { /** d */ point: { x: number; y: number } })", [{ name: "point", type: "object" }]],
  record: ["(args: { /** d */ m: Record<string, number> })", [{ name: "m", type: "object" }]],
  interface_property: ["(args: { /** d */ who: Person })", [{ name: "who", type: "object" }]],
  nullable: ["(args: { /** d */ s: string | null })", [{ name: "s", type: "string", required: true }]],
  or_undefined: ["(args: { /** d */ s: string | undefined })", [{ name: "s", type: "string", required: false }]],
  optional: ["(args: { /** d */ s?: string })", [{ name: "s", type: "string", required: false }]],
  null_and_undefined: [
    "(args: { /** d */ s?: Integer | null | undefined })",
    [{ name: "s", type: "integer", required: false }],
  ],
  alias_of_union: ["(args: { /** d */ m: Mode })", [{ name: "m", type: "string", enum: ["z", "a", "m"] }]],
  default_initializer: [
    '({ n = 5, s = "x", xs = ["a"] }: { /** d */ n?: Integer; /** d */ s?: string; /** d */ xs?: string[] })',
    [
      { name: "n", type: "integer", required: false, default: 5 },
      { name: "s", type: "string", required: false, default: "x" },
      { name: "xs", type: "array", required: false, default: ["a"], items: { type: "string" } },
    ],
  ],
  default_tag: [
    `(args: { /** d\n * @default "b" */ s?: "a" | "b" })`,
    [{ name: "s", type: "string", required: false, default: "b", enum: ["a", "b"] }],
  ],
  default_tag_and_equal_initializer: [
    `({ k = -2 }: { /** d\n * @default -2 */ k?: number })`,
    [{ name: "k", type: "number", required: false, default: -2 }],
  ],
  named_args_interface: [
    "(args: PersonArgs)",
    [
      { name: "zname", type: "string" },
      { name: "age", type: "integer", required: false },
    ],
  ],
  interface_extends: [
    "(args: Child)",
    [
      { name: "base", type: "string" },
      { name: "own", type: "number" },
    ],
  ],
  pick: [
    `(args: Pick<Person, "email" | "zname">)`,
    [
      { name: "zname", type: "string" },
      { name: "email", type: "string", required: false },
    ],
  ],
  omit: [
    `(args: Omit<Person, "age">)`,
    [
      { name: "zname", type: "string" },
      { name: "email", type: "string", required: false },
    ],
  ],
  generic: [
    "(args: Box<Integer>)",
    [
      { name: "value", type: "integer" },
      { name: "label", type: "string" },
    ],
  ],
  intersection: [
    "(args: PersonArgs & { /** d */ extra: boolean })",
    [
      { name: "zname", type: "string" },
      { name: "age", type: "integer", required: false },
      { name: "extra", type: "boolean" },
    ],
  ],
  imported: ["(args: Imported)", [{ name: "path", type: "string", description: "A file path." }]],
  barrel: ["(args: FromBarrel)", [{ name: "deep", type: "integer", description: "Deep." }]],
  package_types: [
    "(args: PkgOptions)",
    [
      { name: "color", type: "string", enum: ["cyan", "magenta"], description: "From a package." },
      { name: "depth", type: "number", required: false },
    ],
  ],
  destructured_with_ctx: ["({ s }: { /** d */ s: string }, ctx: ToolContext)", [{ name: "s", type: "string" }]],
  trailing_comment: [
    "(args: {\n  s: string; // said on the same line\n})",
    [{ name: "s", type: "string", description: "said on the same line" }],
  ],
  no_parameters: ["()", []],
};

/** Each property's JSDoc on its own line, as editors (and the compiler) attach it. */
function toolSource(name: string, signature: string): string {
  const laidOut = signature.replace(/\/\*\*/g, "\n  /**").replace(/\*\/ /g, "*/\n  ");
  return `/**\n * Case ${name}.\n * @tool\n */\nexport function ${name}${laidOut} { return null; }\n`;
}

const SUPPORT = `
export enum Color { Red = "red", Green = "green", Blue = "blue" }
export enum Priority { Low = 10, Mid = 20, High = 30 }
export type Mode = "z" | "a" | "m";
export interface Person {
  /** d */
  zname: string;
  /** d */
  age: Integer;
  /** d */
  email?: string;
}
export interface PersonArgs {
  /** d */
  zname: string;
  /** d */
  age?: Integer;
}
interface Base {
  /** d */
  base: string;
}
export interface Child extends Base {
  /** d */
  own: number;
}
export interface Box<T> {
  /** d */
  value: T;
  /** d */
  label: string;
}
export const SIZES = ["small", "medium", "large"] as const;
export const LEVELS = { a: "low", b: "mid", c: "high" } as const;
`;

const OTHER_TOOLS = `${HEAD}
/**
 * Positional, with param tags.
 * @tool
 * @param a - The first.
 * @param b - The second,
 *   on two lines.
 */
export function positional(a: number, b: Integer = 2, ctx?: ToolContext): number { return a + b; }

/**
 * An arrow function with a custom name.
 * @tool custom.name-1
 * @timeout 45
 */
export const arrow = (args: {
  /** d */
  q: string;
}) => args.q;

/**
 * First paragraph
 * continues here.
 *
 * Second paragraph.
 * @tool
 */
function aliased(args: {
  /** d */
  x: string;
}) { return args.x; }
export { aliased as exported_alias };

/**
 * The default export.
 * @tool
 */
export default function the_default(args: {
  /** d */
  y: string;
}) { return args.y; }
`;

const FILES = {
  "src/cases.ts": `${HEAD}import type { Imported } from "./lib/imported.js";\nimport type { FromBarrel } from "./lib/index.js";\nimport type { PkgOptions } from "fake-pkg";\n${SUPPORT}\n${Object.entries(
    CASES,
  )
    .map(([name, [signature]]) => toolSource(name, signature))
    .join("\n")}`,
  "src/other.ts": OTHER_TOOLS,
  "src/lib/imported.ts": "export interface Imported {\n  /** A file path. */\n  path: string;\n}\n",
  "src/lib/deep.ts": `import type { Integer } from "../executa/index.js";\nexport type FromBarrel = {\n  /** Deep. */\n  deep: Integer;\n};\n`,
  "src/lib/index.ts": `export * from "./deep.js";\nexport type { Imported } from "./imported.js";\n`,
  "node_modules/fake-pkg/package.json": JSON.stringify({
    name: "fake-pkg",
    version: "1.0.0",
    types: "index.d.ts",
    exports: { ".": { types: "./index.d.ts" } },
  }),
  "node_modules/fake-pkg/index.d.ts":
    'export interface PkgOptions {\n  /** From a package. */\n  color: "cyan" | "magenta";\n  /** d */\n  depth?: number;\n}\n',
};

const dir = tsProject(FILES);
const generated = await generateManifest(dir);
const byName = new Map<string, ToolDefinition>(generated.manifest.tools.map((t) => [t.name, t]));

for (const [name, [, expected]] of Object.entries(CASES)) {
  test(`ts type case: ${name}`, () => {
    const tool = byName.get(name);
    assert.ok(tool, `tool ${name} was extracted`);
    assert.equal(tool.description, `Case ${name}.`);
    assert.equal(tool.parameters?.length, expected.length, JSON.stringify(tool.parameters));
    expected.forEach((want, i) => {
      const got = tool.parameters![i]!;
      const subset = Object.fromEntries(
        Object.keys(want).map((k) => [k, (got as unknown as Record<string, unknown>)[k]]),
      );
      assert.deepEqual(subset, want);
      if (want.required === undefined) assert.equal(got.required, true, `${name}.${want.name} is required`);
      if (want.description === undefined) assert.equal(got.description, "d");
      if (want.enum === undefined) assert.equal(got.enum, undefined);
      if (want.default === undefined) assert.equal("default" in got, false);
    });
  });
}

test("positional parameters with @param descriptions, the trailing ctx left out", () => {
  assert.deepEqual(byName.get("positional")!.parameters, [
    { name: "a", type: "number", description: "The first.", required: true },
    { name: "b", type: "integer", description: "The second, on two lines.", required: false, default: 2 },
  ]);
});

test("@tool <name>, @timeout, arrow functions", () => {
  const tool = byName.get("custom.name-1")!;
  assert.equal(tool.timeout, 45);
  assert.equal(tool.description, "An arrow function with a custom name.");
});

test("descriptions keep paragraphs and join lines", () => {
  assert.equal(byName.get("aliased")!.description, "First paragraph continues here.\n\nSecond paragraph.");
});

test("a trailing comment is accepted with a warning at its location", () => {
  const warning = generated.diagnostics.find((d) => d.message.includes("comes from a plain comment"));
  assert.ok(warning);
  assert.equal(warning.severity, "warning");
  assert.equal(warning.file, "src/cases.ts");
  assert.ok(warning.line! > 1);
});

test("no errors, and the one warning is the trailing comment's", () => {
  assert.deepEqual(
    generated.diagnostics.filter((d) => d.severity === "error"),
    [],
  );
  assert.deepEqual(
    generated.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
    ["the description of 's' comes from a plain comment, which editors do not show"],
  );
});

test("bindings: calling style, params, module, export name (alias and default)", () => {
  const bindings = generated.outputs.find((o) => o.path === "src/executa.bindings.ts")!.content;
  assert.match(
    bindings,
    /^\/\/ Generated by `executa manifest`\. Do not edit\.\nimport type \{ Bindings \} from "\.\/executa\/index\.js";\n/,
  );
  assert.match(
    bindings,
    / {2}positional: \{ style: "positional", params: \["a", "b"\], load: async \(\) => \(await import\("\.\/other\.js"\)\)\.positional \},/,
  );
  assert.match(
    bindings,
    / {2}"custom\.name-1": \{ style: "args", load: async \(\) => \(await import\("\.\/other\.js"\)\)\.arrow \},/,
  );
  assert.match(
    bindings,
    / {2}aliased: \{ style: "args", load: async \(\) => \(await import\("\.\/other\.js"\)\)\.exported_alias \},/,
  );
  assert.match(
    bindings,
    / {2}the_default: \{ style: "args", load: async \(\) => \(await import\("\.\/other\.js"\)\)\.default \},/,
  );
  assert.match(
    bindings,
    / {2}string: \{ style: "args", load: async \(\) => \(await import\("\.\/cases\.js"\)\)\.string \},/,
  );
});

test("at least 40 type cases", () => {
  assert.ok(Object.keys(CASES).length >= 40);
});
