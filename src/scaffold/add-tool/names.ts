/** The names `add tool` derives from a tool's name, and the ones each language refuses. */
import { ExecutaError } from "../../common/errors.js";
import type { Language } from "../../project/index.js";
import { PYTHON_KEYWORDS } from "../python-keywords.js";
import type { ToolParam } from "./params.js";

/** Letters and digits in words joined by single `_` or `-` (a manifest tool name every language can spell as an identifier). */
export const TOOL_NAME = /^[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*$/;
const MAX_TOOL_NAME = 64;

/** Reserved words that cannot name a function or a destructured binding in strict-mode TypeScript. */
const TS_RESERVED = new Set([
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "let",
  "static",
  "implements",
  "interface",
  "package",
  "private",
  "protected",
  "public",
  "await",
  "arguments",
  "eval",
]);

/** The function name in TypeScript and Python: `fetch-weather` -> `fetch_weather`. */
export function functionName(tool: string): string {
  return tool.replaceAll("-", "_");
}

/** Go's exported spelling: `fetch_weather` -> `FetchWeather`, `max_words` -> `MaxWords`. */
export function pascalCase(name: string): string {
  return name
    .split(/[_-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

function refuse(message: string, hint: string): never {
  throw new ExecutaError(message, { hint });
}

/** Throws when the tool's name or a parameter's cannot be written in the project's language. */
export function checkNames(lang: Language, tool: string, params: readonly ToolParam[]): void {
  if (!TOOL_NAME.test(tool) || tool.length > MAX_TOOL_NAME) {
    refuse(
      `'${tool}' is not a tool name add tool can write`,
      "a tool name is words of letters and digits joined by single _ or -, starting with a letter, at most 64 characters: e.g. fetch_weather",
    );
  }
  const fn = functionName(tool);
  if (lang === "ts" && TS_RESERVED.has(fn))
    refuse(
      `'${tool}' is a reserved word in TypeScript and cannot name the tool's function`,
      `choose another name, e.g. ${tool}_tool`,
    );
  if (lang === "python" && (PYTHON_KEYWORDS.has(fn) || fn === "tool")) {
    refuse(
      `'${tool}' ${fn === "tool" ? "would hide the @tool decorator in its module" : "is a Python keyword"} and cannot name the tool's function`,
      `choose another name, e.g. ${tool}_tool`,
    );
  }
  for (const p of params) {
    if (lang === "ts" && TS_RESERVED.has(p.name))
      refuse(`parameter '${p.name}' is a reserved word in TypeScript`, "choose another parameter name");
    if (lang === "python" && PYTHON_KEYWORDS.has(p.name))
      refuse(`parameter '${p.name}' is a Python keyword`, "choose another parameter name");
    if (lang === "python" && p.name === "ctx")
      refuse("parameter 'ctx' is the name the Python runtime gives the tool context", "choose another parameter name");
  }
  if (lang === "go") {
    const fields = new Map<string, string>();
    for (const p of params) {
      const field = pascalCase(p.name);
      const other = fields.get(field);
      if (other)
        refuse(
          `parameters '${other}' and '${p.name}' would both be the Go field ${field}`,
          "choose parameter names that differ in more than _ and letter case",
        );
      fields.set(field, p.name);
    }
  }
}
