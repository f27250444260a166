/** Source tools (compiler-neutral) -> manifest tools, with the diagnostics of the TypeScript rules. */
import type { Diagnostic, Json, Parameter, ParameterType, ToolDefinition } from "../../protocol/index.js";
import type { SourceLocation, ToolLocation } from "../model.js";
import type { Shape, SourceParam, SourceTool } from "./source-model.js";

function at(location: SourceLocation): Pick<Diagnostic, "file" | "line" | "column"> {
  return { file: location.file, line: location.line, column: location.column };
}

function baseType(shape: Shape, integerTag: boolean): ParameterType | undefined {
  switch (shape.kind) {
    case "string":
    case "boolean":
    case "object":
    case "array":
      return shape.kind;
    case "number":
      return shape.integer || integerTag ? "integer" : "number";
    case "enum":
      if (shape.base !== "number") return shape.base;
      return integerTag || shape.values.every((v) => Number.isInteger(v)) ? "integer" : "number";
    default:
      return undefined;
  }
}

function itemsOf(shape: Shape): Parameter["items"] | undefined {
  const type = baseType(shape, false);
  if (!type) return undefined;
  const items: NonNullable<Parameter["items"]> = { type };
  if (shape.kind === "enum") items.enum = shape.values;
  if (shape.kind === "array") {
    const inner = itemsOf(shape.element);
    if (inner) items.items = inner as Json;
  }
  return items;
}

function firstUnsupported(shape: Shape): Extract<Shape, { kind: "unsupported" }> | undefined {
  if (shape.kind === "unsupported") return shape;
  if (shape.kind === "array") return firstUnsupported(shape.element);
  return undefined;
}

function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function mapParam(tool: SourceTool, p: SourceParam, diagnostics: Diagnostic[]): Parameter | undefined {
  const bad = firstUnsupported(p.shape);
  if (bad) {
    const where = p.shape.kind === "array" ? "items of " : "";
    diagnostics.push({
      severity: "error",
      message: `parameter '${p.name}' of tool '${tool.name}': ${bad.problem ?? `${where}${bad.what} has no manifest type`}`,
      hint: bad.hint,
      ...at(p.location),
    });
    return undefined;
  }
  if (p.integerTag && !(p.shape.kind === "number" || (p.shape.kind === "enum" && p.shape.base === "number"))) {
    diagnostics.push({
      severity: "error",
      message: `@integer on '${p.name}', which is not a number`,
      hint: "use @integer on number properties only",
      ...at(p.location),
    });
  }
  const type = baseType(p.shape, p.integerTag)!;
  const param: Parameter = { name: p.name, type };
  if (p.description) param.description = p.description;
  if (p.describedByPlainComment) {
    diagnostics.push({
      severity: "warning",
      message: `the description of '${p.name}' comes from a plain comment, which editors do not show`,
      hint: "write it as a /** ... */ comment above the property",
      ...at(p.location),
    });
  }
  param.required = !p.optional;

  let fromTag: Json | undefined;
  if (p.defaultTag !== undefined) {
    try {
      fromTag = JSON.parse(p.defaultTag) as Json;
    } catch {
      diagnostics.push({
        severity: "error",
        message: `@default of '${p.name}' is not JSON: ${p.defaultTag === "" ? "(empty)" : p.defaultTag}`,
        hint: 'write a JSON literal, e.g. @default "lower" or @default 3',
        ...at(p.location),
      });
    }
  }
  let fromInit: Json | undefined;
  if (p.initializer) {
    if (p.initializer.value === undefined) {
      if (fromTag === undefined) {
        diagnostics.push({
          severity: "warning",
          message: `the default of '${p.name}' (${p.initializer.text}) is not a JSON literal, so the manifest has no default for it`,
          hint: "use a literal initializer, or document it with @default <json>",
          ...at(p.location),
        });
      }
    } else fromInit = p.initializer.value;
  }
  if (fromTag !== undefined && fromInit !== undefined && !sameJson(fromTag, fromInit)) {
    diagnostics.push({
      severity: "error",
      message: `'${p.name}' has two different defaults: ${p.initializer!.text} in the code and ${p.defaultTag} in @default`,
      hint: "remove @default, or make it equal to the initializer",
      ...at(p.location),
    });
  }
  const value = fromInit ?? fromTag;
  if (value !== undefined) {
    param.default = value;
    param.required = false;
  }
  if (p.shape.kind === "enum") param.enum = p.shape.values;
  if (p.shape.kind === "array") param.items = itemsOf(p.shape.element);
  return param;
}

export function mapTools(
  tools: SourceTool[],
  diagnostics: Diagnostic[],
): { tools: ToolDefinition[]; locations: ToolLocation[] } {
  const out: ToolDefinition[] = [];
  const locations: ToolLocation[] = [];
  for (const tool of tools) {
    const def: ToolDefinition = { name: tool.name, description: tool.description };
    if (tool.timeoutTag !== undefined) {
      const n = Number(tool.timeoutTag);
      if (tool.timeoutTag === "" || !Number.isInteger(n) || n <= 0) {
        diagnostics.push({
          severity: "error",
          message: `@timeout of tool '${tool.name}' must be a whole number of seconds above 0, not ${tool.timeoutTag === "" ? "(empty)" : tool.timeoutTag}`,
          hint: "write e.g. @timeout 30",
          ...at(tool.location),
        });
      } else def.timeout = n;
    }
    const params: Parameter[] = [];
    const paramLocations: SourceLocation[] = [];
    for (const p of tool.params) {
      const mapped = mapParam(tool, p, diagnostics);
      if (mapped) {
        params.push(mapped);
        paramLocations.push(p.location);
      }
    }
    if (tool.style === "positional") {
      for (const tag of tool.paramTags) {
        if (!tool.params.some((p) => p.name === tag.name)) {
          diagnostics.push({
            severity: "warning",
            message: `@param ${tag.name} matches no parameter of '${tool.name}'`,
            ...at(tag.location),
          });
        }
      }
    }
    def.parameters = params;
    out.push(def);
    locations.push({ ...tool.location, parameters: paramLocations });
  }
  return { tools: out, locations };
}
