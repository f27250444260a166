/**
 * `--param` of `executa add tool`: `name:type`, `name?:type` (optional), `name:type=value` (a
 * default, parsed per type), `name:enum(a|b)`, `name:type[]` (an array; `enum(a|b)[]` too).
 */
import { ExecutaError } from "../../common/errors.js";
import type { Json } from "../../protocol/index.js";

export const SCALAR_TYPES = ["string", "integer", "number", "boolean", "object"] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export interface ToolParam {
  name: string;
  /** The value's type, or each item's for an array. */
  type: ScalarType | "enum";
  /** The values of an enum (of the value, or of each item). */
  values?: string[];
  array: boolean;
  /** `?`, or a default. */
  optional: boolean;
  default?: Json;
}

export const PARAM_GRAMMAR =
  "name:type, name?:type (optional), name:type=value (a default), name:enum(a|b), name:type[] (an array); types: " +
  SCALAR_TYPES.join(", ");
const EXAMPLE = `e.g. --param city:string --param "days?:integer=3" --param "units:enum(metric|imperial)" --param tags:string[]`;

const SYNTAX = /^([^?:=]*)(\?)?:(enum\(([^)]*)\)|[A-Za-z]*)(\[\])?(?:=([\s\S]*))?$/;

/** A parameter name every language takes as an identifier and the manifest as a name. */
export const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

function bad(spec: string, why: string, hint = `write ${PARAM_GRAMMAR}; ${EXAMPLE}`): never {
  throw new ExecutaError(`--param ${JSON.stringify(spec)}: ${why}`, { hint });
}

const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

function scalarValue(spec: string, text: string, param: Pick<ToolParam, "type" | "values">): Json {
  switch (param.type) {
    case "string":
      return text;
    case "integer":
      if (!INTEGER.test(text) || !Number.isSafeInteger(Number(text)))
        bad(
          spec,
          `default ${JSON.stringify(text)} is not a whole number (at most 2^53 - 1 either way)`,
          "e.g. --param days:integer=3",
        );
      return Number(text);
    case "number":
      if (!NUMBER.test(text) || !Number.isFinite(Number(text)))
        bad(spec, `default ${JSON.stringify(text)} is not a number`, "e.g. --param ratio:number=0.5");
      return Number(text);
    case "boolean":
      if (text !== "true" && text !== "false")
        bad(spec, `default ${JSON.stringify(text)} is not true or false`, "e.g. --param verbose:boolean=false");
      return text === "true";
    case "enum":
      if (!param.values!.includes(text))
        bad(
          spec,
          `default ${JSON.stringify(text)} is not one of ${param.values!.join(", ")}`,
          'e.g. --param "units:enum(metric|imperial)=metric"',
        );
      return text;
    case "object": {
      const value = parseJson(text);
      if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value)) {
        bad(
          spec,
          `default ${JSON.stringify(text)} is not a JSON object`,
          `e.g. --param 'headers:object={"accept":"text/plain"}'`,
        );
      }
      return value;
    }
  }
}

function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** Whether a JSON value fits the type (the items of a JSON array default). */
function fits(value: Json, param: Pick<ToolParam, "type" | "values">): boolean {
  switch (param.type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return typeof value === "string" && param.values!.includes(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
  }
}

/** An array default: a JSON array, or items separated by commas (`=a,b`); empty is []. */
function arrayValue(spec: string, text: string, param: Pick<ToolParam, "type" | "values">): Json {
  if (text.trim() === "") return [];
  if (text.trimStart().startsWith("[")) {
    const value = parseJson(text);
    if (!Array.isArray(value))
      bad(
        spec,
        `default ${JSON.stringify(text)} is not a JSON array`,
        `e.g. --param 'tags:string[]=["a","b"]' or --param tags:string[]=a,b`,
      );
    const wrong = value.find((item) => !fits(item, param));
    if (wrong !== undefined)
      bad(
        spec,
        `the default's item ${JSON.stringify(wrong)} is not ${param.type === "enum" ? `one of ${param.values!.join(", ")}` : `of type ${param.type}`}`,
      );
    return value;
  }
  if (param.type === "object")
    bad(
      spec,
      "an array of objects takes its default as a JSON array",
      `e.g. --param 'filters:object[]=[{"field":"name"}]'`,
    );
  return text.split(",").map((item) => scalarValue(spec, item, param));
}

export function parseParam(spec: string): ToolParam {
  const m = SYNTAX.exec(spec);
  if (!m) bad(spec, "not name:type");
  const [, name = "", question, typeText = "", valuesText, brackets, defaultText] = m;
  if (!PARAM_NAME.test(name)) {
    bad(
      spec,
      `'${name}' is not a parameter name`,
      "a parameter name starts with a letter and holds letters, digits and _ (at most 64), e.g. max_words",
    );
  }
  let type: ToolParam["type"];
  let values: string[] | undefined;
  if (valuesText !== undefined) {
    type = "enum";
    values = valuesText.split("|");
    if (values.some((v) => v === "" || /[\p{Cc}]/u.test(v)))
      bad(spec, "an enum value is empty or holds a control character", `e.g. --param "units:enum(metric|imperial)"`);
    const twice = values.find((v, i) => values!.indexOf(v) !== i);
    if (twice !== undefined)
      bad(spec, `the enum value ${JSON.stringify(twice)} appears twice`, `e.g. --param "units:enum(metric|imperial)"`);
  } else if ((SCALAR_TYPES as readonly string[]).includes(typeText)) {
    type = typeText as ScalarType;
  } else {
    const hint =
      typeText === "array"
        ? "write the item type: e.g. --param tags:string[]"
        : `use one of ${SCALAR_TYPES.join(", ")}, enum(a|b), or any of them with [] for an array; e.g. --param days:integer`;
    bad(spec, typeText ? `unknown type '${typeText}'` : "the type is missing", hint);
  }
  const param: ToolParam = {
    name,
    type,
    ...(values && { values }),
    array: brackets !== undefined,
    optional: question !== undefined || defaultText !== undefined,
  };
  if (defaultText !== undefined)
    param.default = param.array ? arrayValue(spec, defaultText, param) : scalarValue(spec, defaultText, param);
  return param;
}

/** Every --param, in order; a name given twice is refused. */
export function parseParams(specs: readonly string[]): ToolParam[] {
  const params = specs.map(parseParam);
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name))
      throw new ExecutaError(`--param ${p.name} is given twice`, { hint: "give each parameter once" });
    seen.add(p.name);
  }
  return params;
}
