/**
 * Invoke arguments against a tool's manifest parameters, exactly as the runtimes check them
 * (docs/runtime-contract.md "Arguments"; the validation vectors prove this copy equal). The web
 * workbench shows these problems before it sends an invoke.
 */
import type { ToolDefinition } from "./manifest.js";

export interface ArgumentProblem {
  parameter: string;
  message: string;
}

/** The JSON type name of a value, as the runtimes' messages say it (every number is "number"). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why a value does not have the manifest type; undefined when it does. */
export function typeProblem(value: unknown, type: string): string | undefined {
  const expected = () => `expected ${type}, got ${jsonTypeName(value)}`;
  switch (type) {
    case "integer":
      if (typeof value !== "number") return expected();
      if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) return `integer out of range (±${Number.MAX_SAFE_INTEGER})`;
      return Number.isInteger(value) ? undefined : expected();
    case "number":
      if (typeof value !== "number") return expected();
      return Number.isFinite(value) ? undefined : "number out of range";
    case "string":
    case "boolean":
      return typeof value === type ? undefined : expected();
    case "object":
      return isObject(value) ? undefined : expected();
    case "array":
      return Array.isArray(value) ? undefined : expected();
    default:
      return undefined; // a type the runtimes do not know: the tool decides
  }
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b));

/**
 * Every problem of `args` for the tool, in the runtimes' order: parameters in manifest order,
 * then names the tool does not declare in argument order. Empty when the invoke would pass.
 */
export function argumentProblems(tool: ToolDefinition, args: Record<string, unknown>): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  const parameters = tool.parameters ?? [];
  for (const p of parameters) {
    const value = Object.hasOwn(args, p.name) ? args[p.name] : undefined;
    if (value === undefined || value === null) {
      if (p.required !== false) problems.push({ parameter: p.name, message: "required" });
      continue;
    }
    const problem = typeProblem(value, p.type);
    if (problem !== undefined) {
      problems.push({ parameter: p.name, message: problem });
      continue;
    }
    if (p.type === "array") {
      const itemType = p.items?.type ?? p.items_type ?? "string";
      (value as unknown[]).forEach((item, i) => {
        const itemProblem = typeProblem(item, itemType);
        if (itemProblem !== undefined) problems.push({ parameter: p.name, message: `item ${i}: ${itemProblem}` });
      });
    }
    if (p.enum !== undefined && !p.enum.some((allowed) => sameValue(allowed, value))) {
      problems.push({ parameter: p.name, message: `must be one of: ${p.enum.map(String).join(", ")}` });
    }
  }
  for (const name of Object.keys(args)) {
    if (!parameters.some((p) => p.name === name)) problems.push({ parameter: name, message: "unknown parameter" });
  }
  return problems;
}
