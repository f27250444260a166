/** Arguments for a tool's parameters: valid ones (for the envelope), and broken ones (for -32602). */
import type { Parameter, ToolDefinition } from "../protocol/index.js";

type Json = unknown;

function itemType(p: Parameter): string {
  return p.items?.type ?? p.items_type ?? "string";
}

const SAMPLE: Record<string, Json> = {
  string: "executa conformance test",
  integer: 1,
  number: 1.5,
  boolean: true,
  object: {},
};

/** A value of the parameter's type: the default, else the first enum value, else a sample. */
export function validValue(p: Parameter): Json {
  if (p.default !== undefined && p.default !== null) return p.default;
  if (Array.isArray(p.enum) && p.enum.length > 0) return p.enum[0];
  if (p.type === "array") {
    const t = itemType(p);
    return t in SAMPLE ? [SAMPLE[t]] : [];
  }
  return SAMPLE[p.type] ?? "x";
}

/** Every required parameter with a valid value, and every optional one too (to exercise them). */
export function validArguments(tool: ToolDefinition): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const p of tool.parameters ?? []) out[p.name] = validValue(p);
  return out;
}

/** A value of the wrong JSON type for the parameter. */
export function wrongValue(p: Parameter): Json {
  switch (p.type) {
    case "string":
      return 12345;
    case "integer":
      return "not an integer";
    case "number":
      return "not a number";
    case "boolean":
      return "yes";
    case "array":
      return "not an array";
    case "object":
      return "not an object";
    default:
      return { unexpected: true };
  }
}

export const isRequired = (p: Parameter) => p.required !== false;

export interface BrokenCall {
  tool: string;
  arguments: Record<string, Json>;
  what: string;
  /** -32602 is the right answer (a warning otherwise), or any answer will do (none is a failure). */
  expect: "invalid-params" | "any-answer";
}

/** The name of an argument no tool declares. */
export const UNDECLARED_ARGUMENT = "executa_conformance_extra";

/**
 * For a tool: a call without a required parameter (-32602 expected), one with a parameter of the
 * wrong type and one with an undeclared extra argument (accepting them is not wrong: any answer
 * will do, only silence is a failure).
 */
export function brokenCalls(tool: ToolDefinition): BrokenCall[] {
  const calls: BrokenCall[] = [];
  const params = tool.parameters ?? [];
  const required = params.find(isRequired);
  if (required) {
    const args = validArguments(tool);
    delete args[required.name];
    calls.push({
      tool: tool.name,
      arguments: args,
      what: `required parameter '${required.name}' missing`,
      expect: "invalid-params",
    });
  }
  const typed = required ?? params[0];
  if (typed) {
    calls.push({
      tool: tool.name,
      arguments: { ...validArguments(tool), [typed.name]: wrongValue(typed) },
      what: `'${typed.name}' (${typed.type}) given ${JSON.stringify(wrongValue(typed))}`,
      expect: "any-answer",
    });
  }
  calls.push({
    tool: tool.name,
    arguments: { ...validArguments(tool), [UNDECLARED_ARGUMENT]: "x" },
    what: `an undeclared argument '${UNDECLARED_ARGUMENT}'`,
    expect: "any-answer",
  });
  return calls;
}
