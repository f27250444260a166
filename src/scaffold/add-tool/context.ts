/**
 * The template context of a new tool in each language: its types, defaults and a sample call,
 * spelled in that language with the escapes of src/scaffold/escape.ts.
 */
import type { Json } from "../../protocol/index.js";
import type { Language } from "../../project/index.js";
import {
  commentLine,
  goString,
  goTagValue,
  jsonString,
  pythonDocstringText,
  pythonString,
  pythonValue,
} from "../escape.js";
import type { ToolLayout } from "./layout.js";
import { functionName, pascalCase } from "./names.js";
import type { ToolParam } from "./params.js";

export interface NewTool {
  name: string;
  description: string;
  timeout?: number;
  params: ToolParam[];
}

/** A value a test passes for the parameter: its default, else one of its type. */
function sample(p: ToolParam): Json {
  if (p.default !== undefined) return p.default;
  const one: Json =
    p.type === "enum"
      ? p.values![0]!
      : { string: "example", integer: 1, number: 0.5, boolean: true, object: { key: "value" } }[p.type];
  return p.array ? [one] : one;
}

/** Lines longer than this are split one item per line, as the templates' own code is. */
const LINE = 100;

/**
 * `{ a, b }` on one line when `prefix{...}suffix` fits, else one item per line at `indent` + 1 level
 * (`unit`) with a trailing comma.
 */
function block(items: string[], prefix: string, suffix: string, indent: string, unit: string, spaced: boolean): string {
  const inner = items.join(", ");
  const line = `${prefix}{${spaced && inner ? ` ${inner} ` : inner}}${suffix}`;
  if (indent.length + line.length <= LINE) return line;
  return `${prefix}{\n${items.map((i) => `${indent}${unit}${i},\n`).join("")}${indent}}${suffix}`;
}

/** `// TODO: describe days.`: the placeholder the author replaces (the manifest wants a description). */
const paramDoc = (p: ToolParam) => `TODO: describe ${p.name}.`;

// ---- TypeScript ----------------------------------------------------------------------------------

function tsType(p: ToolParam): string {
  const item =
    p.type === "enum"
      ? p.values!.map(jsonString).join(" | ")
      : {
          string: "string",
          integer: "Integer",
          number: "number",
          boolean: "boolean",
          object: "Record<string, unknown>",
        }[p.type];
  if (!p.array) return item;
  return p.type === "enum" && p.values!.length > 1 ? `(${item})[]` : `${item}[]`;
}

/** A JSON value as a TypeScript literal (JSON is one; strings get jsonString's escapes). */
function tsValue(value: Json): string {
  if (typeof value === "string") return jsonString(value);
  if (Array.isArray(value)) return `[${value.map(tsValue).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${jsonString(k)}: ${tsValue(v)}`)
      .join(", ")} }`;
  return JSON.stringify(value);
}

function tsContext(tool: NewTool, layout: ToolLayout) {
  const fn = functionName(tool.name);
  return {
    fn,
    // `@tool <name>` only when the function cannot carry the tool's name.
    toolTag: fn === tool.name ? "@tool" : `@tool ${tool.name}`,
    usesInteger: tool.params.some((p) => p.type === "integer"),
    params: tool.params.map((p) => ({
      name: p.name,
      binding: p.default === undefined ? p.name : `${p.name} = ${tsValue(p.default)}`,
      property: `${p.name}${p.optional ? "?" : ""}: ${tsType(p)}`,
      doc: paramDoc(p),
    })),
    result: block(
      tool.params.map((p) => p.name),
      "return ",
      ";",
      "  ",
      "  ",
      true,
    ),
    sample: block(
      tool.params.map((p) => `${p.name}: ${tsValue(sample(p))}`),
      `const args: Parameters<typeof ${fn}>[0] = `,
      ";",
      "  ",
      "  ",
      true,
    ),
    testImport: `../../src/tools/${layout.stem}.js`,
  };
}

// ---- Python --------------------------------------------------------------------------------------

function pyType(p: ToolParam): string {
  const item =
    p.type === "enum"
      ? `Literal[${p.values!.map(pythonString).join(", ")}]`
      : { string: "str", integer: "int", number: "float", boolean: "bool", object: "dict" }[p.type];
  const type = p.array ? `list[${item}]` : item;
  return p.optional && p.default === undefined ? `${type} | None` : type;
}

function pySignature(fn: string, params: ToolParam[]): string {
  const parts = params.map((p) => `${p.name}: ${pyType(p)}${p.optional ? ` = ${pythonValue(p.default ?? null)}` : ""}`);
  // Python wants defaults last: a required parameter after an optional one makes the rest keyword-only.
  const firstOptional = params.findIndex((p) => p.optional);
  if (firstOptional >= 0 && params.slice(firstOptional).some((p) => !p.optional)) parts.splice(firstOptional, 0, "*");
  const line = `def ${fn}(${parts.join(", ")}) -> dict:`;
  return line.length <= LINE ? line : `def ${fn}(\n${parts.map((p) => `    ${p},\n`).join("")}) -> dict:`;
}

function pyContext(tool: NewTool, layout: ToolLayout, pyPackage: string) {
  const fn = functionName(tool.name);
  const options = [
    ...(fn === tool.name ? [] : [`name=${pythonString(tool.name)}`]),
    ...(tool.timeout ? [`timeout=${tool.timeout}`] : []),
  ];
  return {
    fn,
    decorator: options.length ? `@tool(${options.join(", ")})` : "@tool",
    usesLiteral: tool.params.some((p) => p.type === "enum"),
    signature: pySignature(fn, tool.params),
    docstring: pythonDocstringText(tool.description),
    params: tool.params.map((p) => ({ name: p.name, doc: pythonDocstringText(paramDoc(p)) })),
    result: block(
      tool.params.map((p) => `${pythonString(p.name)}: ${p.name}`),
      "return ",
      "",
      "    ",
      "    ",
      false,
    ),
    sample: block(
      tool.params.map((p) => `${pythonString(p.name)}: ${pythonValue(sample(p))}`),
      "args = ",
      "",
      "    ",
      "    ",
      false,
    ),
    testImport: `${pyPackage}.${layout.stem}`,
    // pytest would collect an imported function named test*, so the test calls it by another name.
    testName: fn.startsWith("test") ? `tool_${fn}` : fn,
  };
}

// ---- Go ------------------------------------------------------------------------------------------

interface GoEnum {
  type: string;
  param: string;
  /** Aligned as gofmt aligns a const block. */
  consts: { name: string; padded: string; value: string }[];
}

function goEnum(tool: string, p: ToolParam): GoEnum {
  const type = pascalCase(tool) + pascalCase(p.name);
  const taken = new Set<string>();
  const names = p.values!.map((value, i) => {
    let name =
      type +
      value
        .split(/[^\p{L}\p{Nd}]+/u)
        .filter(Boolean)
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join("");
    if (name === type || taken.has(name)) name = `${type}Value${i + 1}`;
    taken.add(name);
    return name;
  });
  const width = Math.max(...names.map((n) => n.length));
  return {
    type,
    param: p.name,
    consts: names.map((name, i) => ({ name, padded: name.padEnd(width), value: goString(p.values![i]!) })),
  };
}

function goType(p: ToolParam, enumType: string | undefined): string {
  const item =
    enumType ??
    { string: "string", integer: "int", number: "float64", boolean: "bool", object: "map[string]any" }[
      p.type as Exclude<ToolParam["type"], "enum">
    ];
  return p.array ? `[]${item}` : item;
}

/** A JSON value as a Go literal of the field's type. */
function goValue(value: Json, p: ToolParam, e: GoEnum | undefined, asItem = false): string {
  if (p.array && !asItem)
    return `${goType(p, e?.type)}{${(value as Json[]).map((v) => goValue(v, p, e, true)).join(", ")}}`;
  if (e) return e.consts[p.values!.indexOf(value as string)]!.name;
  if (typeof value === "string") return goString(value);
  if (value !== null && typeof value === "object") {
    return `map[string]any{${Object.entries(value)
      .map(([k, v]) => `${goString(k)}: ${goAny(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** A JSON value inside map[string]any. */
function goAny(value: Json): string {
  if (typeof value === "string") return goString(value);
  if (Array.isArray(value)) return `[]any{${value.map(goAny).join(", ")}}`;
  if (value !== null && typeof value === "object")
    return `map[string]any{${Object.entries(value)
      .map(([k, v]) => `${goString(k)}: ${goAny(v)}`)
      .join(", ")}}`;
  return value === null ? "nil" : JSON.stringify(value);
}

function goTag(p: ToolParam): string {
  const json = `json:"${p.name}${p.optional ? ",omitempty" : ""}"`;
  if (p.default === undefined) return json;
  const text = typeof p.default === "string" ? p.default : JSON.stringify(p.default);
  return `${json} default:${goTagValue(text)}`;
}

/**
 * Whether gofmt keeps the text as it is in a one-line doc comment: it turns `` and '' into curly
 * quotes, and a line that starts like a list, a heading, a link or code into those.
 */
function goDocSafe(text: string): boolean {
  return /^\p{L}/u.test(text) && !/``|''/.test(text);
}

function goContext(tool: NewTool) {
  const fn = pascalCase(tool.name);
  const description = commentLine(tool.description);
  const enums = new Map(tool.params.filter((p) => p.type === "enum").map((p) => [p.name, goEnum(tool.name, p)]));
  return {
    fn,
    argsType: `${fn}Args`,
    // Text gofmt would rewrite goes into the directive as a Go string instead.
    ...(goDocSafe(description) ? {} : { directiveDescription: goString(description) }),
    enums: [...enums.values()],
    fields: tool.params.map((p) => ({
      field: pascalCase(p.name),
      type: goType(p, enums.get(p.name)?.type),
      tag: goTag(p),
      doc: paramDoc(p),
    })),
    sample: `${fn}Args{${tool.params.map((p) => `${pascalCase(p.name)}: ${goValue(sample(p), p, enums.get(p.name))}`).join(", ")}}`,
  };
}

/** The identifiers a new Go tool declares in package main (they must be free). */
export function goIdentifiers(tool: NewTool): string[] {
  const c = goContext(tool);
  return [c.fn, c.argsType, `Test${c.fn}`, ...c.enums.flatMap((e) => [e.type, ...e.consts.map((k) => k.name)])];
}

export function toolContext(lang: Language, tool: NewTool, layout: ToolLayout, pyPackage: string) {
  const description = commentLine(tool.description);
  const common = {
    tool: tool.name,
    description,
    timeout: tool.timeout,
    hasParams: tool.params.length > 0,
    toolFile: layout.tool,
    testFile: layout.test,
  };
  switch (lang) {
    case "ts":
      return { ...common, ...tsContext(tool, layout) };
    case "python":
      return { ...common, ...pyContext({ ...tool, description }, layout, pyPackage) };
    case "go":
      return { ...common, ...goContext(tool) };
  }
}
