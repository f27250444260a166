/** Argument validation: the invoke's `arguments` against the tool's manifest parameters. */
import type { ToolDefinition } from "./types.js";

export interface ArgumentProblem {
  parameter: string;
  message: string;
}

/** The JSON type name of a value, as the error messages say it. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Why a value does not have the manifest type; undefined when it does. */
function typeProblem(value: unknown, type: string): string | undefined {
  const expected = () => `expected ${type}, got ${jsonType(value)}`;
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
      return undefined; // a type the runtime does not know: let the tool decide
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b);
}

function copy<T>(value: T): T {
  return typeof value === "object" && value !== null ? structuredClone(value) : value;
}

/**
 * Checks `args` against the tool's parameters. Returns the problems (one per parameter and
 * issue), or the arguments the tool sees: `null` for an optional parameter means "not given",
 * and a missing optional parameter gets the manifest `default` when it has one.
 */
export function checkArguments(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): { ok: true; args: Record<string, unknown> } | { ok: false; errors: ArgumentProblem[] } {
  const errors: ArgumentProblem[] = [];
  const out: Record<string, unknown> = {};
  const parameters = tool.parameters ?? [];
  for (const p of parameters) {
    const value = Object.hasOwn(args, p.name) ? args[p.name] : undefined;
    if (value === undefined || value === null) {
      if (p.required !== false) errors.push({ parameter: p.name, message: "required" });
      else if (p.default != null) out[p.name] = copy(p.default);
      continue;
    }
    const problem = typeProblem(value, p.type);
    if (problem !== undefined) {
      errors.push({ parameter: p.name, message: problem });
      continue;
    }
    if (p.type === "array") {
      const itemType = p.items?.type ?? p.items_type ?? "string";
      (value as unknown[]).forEach((item, i) => {
        const itemProblem = typeProblem(item, itemType);
        if (itemProblem !== undefined) errors.push({ parameter: p.name, message: `item ${i}: ${itemProblem}` });
      });
    }
    if (p.enum !== undefined && !p.enum.some((allowed) => sameValue(allowed, value))) {
      errors.push({ parameter: p.name, message: `must be one of: ${p.enum.map(String).join(", ")}` });
    }
    out[p.name] = value;
  }
  for (const name of Object.keys(args)) {
    if (!parameters.some((p) => p.name === name)) errors.push({ parameter: name, message: "unknown parameter" });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, args: out };
}
