/**
 * Structured output for sampling: the `responseFormat` request (json_object, json_schema), the
 * host's schema limits, the downgrade `onUnsupported` allows, a deterministic document that
 * satisfies the schema, and `structuredValid` (the answer checked against the schema with Ajv).
 */
import type { Ajv2020 as Ajv, ValidateFunction } from "ajv/dist/2020.js";
import { SamplingError, SCHEMA_LIMITS } from "../../protocol/index.js";
import { isObject, refuse, type Params } from "./params.js";
import type { StructuredSupport } from "./types.js";

export type FormatRequest =
  | { type: "json_object" }
  | { type: "json_schema"; name: string; strict: boolean; schema: Record<string, unknown> };

export type Applied = StructuredSupport;

export interface FormatMeta {
  type: Applied;
  requested: FormatRequest["type"];
  structuredValid: boolean;
  downgraded: boolean;
}

/** Keywords whose value is one subschema, or a list or map of subschemas. */
const ONE = [
  "additionalProperties",
  "items",
  "not",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "if",
  "then",
  "else",
  "additionalItems",
];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

function subschemas(schema: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const k of ONE) {
    const v = schema[k];
    if (isObject(v)) out.push(v);
    else if (k === "items" && Array.isArray(v)) out.push(...v.filter(isObject));
  }
  for (const k of LIST) if (Array.isArray(schema[k])) out.push(...(schema[k] as unknown[]).filter(isObject));
  for (const k of MAP) if (isObject(schema[k])) out.push(...Object.values(schema[k] as object).filter(isObject));
  return out;
}

/**
 * Depth is the nesting of subschemas (the root schema is depth 1; each schema under properties,
 * items, anyOf... one more); nodes count every subschema, the root included.
 */
export function schemaSize(schema: Record<string, unknown>): { depth: number; nodes: number; bytes: number } {
  let nodes = 0;
  let depth = 0;
  const walk = (s: Record<string, unknown>, level: number) => {
    nodes++;
    depth = Math.max(depth, level);
    if (level > SCHEMA_LIMITS.maxDepth + 1 || nodes > SCHEMA_LIMITS.maxNodes + 1) return;
    for (const child of subschemas(s)) walk(child, level + 1);
  };
  walk(schema, 1);
  return { depth, nodes, bytes: Buffer.byteLength(JSON.stringify(schema)) };
}

/** Reads `responseFormat` (undefined when absent); a malformed one is INVALID_REQUEST. */
export async function readResponseFormat(p: Params): Promise<FormatRequest | undefined> {
  const rf = p.object("responseFormat");
  if (!rf) return undefined;
  if (rf.type === "json_object") return { type: "json_object" };
  if (rf.type === "text") return undefined;
  if (rf.type !== "json_schema")
    throw p.bad(`responseFormat.type must be "json_object" or "json_schema", got ${JSON.stringify(rf.type)}`);
  const js = rf.json_schema;
  if (!isObject(js)) throw p.bad(`responseFormat.json_schema must be an object {name, strict, schema}`);
  if (typeof js.name !== "string" || !SCHEMA_LIMITS.name.test(js.name)) {
    throw p.bad(
      `responseFormat.json_schema.name must match ${SCHEMA_LIMITS.name} (1 to 64 letters, digits, _ or -), got ${JSON.stringify(js.name)}`,
    );
  }
  if (js.strict !== undefined && typeof js.strict !== "boolean")
    throw p.bad("responseFormat.json_schema.strict must be true or false");
  if (!isObject(js.schema)) throw p.bad("responseFormat.json_schema.schema must be a JSON Schema object");
  const size = schemaSize(js.schema);
  if (size.bytes > SCHEMA_LIMITS.maxBytes)
    throw p.bad(
      `the schema is ${size.bytes} bytes serialised; the host accepts at most ${SCHEMA_LIMITS.maxBytes} (32 KB)`,
    );
  if (size.depth > SCHEMA_LIMITS.maxDepth)
    throw p.bad(
      `the schema nests subschemas deeper than ${SCHEMA_LIMITS.maxDepth} levels (the host's limit); flatten it`,
    );
  if (size.nodes > SCHEMA_LIMITS.maxNodes)
    throw p.bad(`the schema has more than ${SCHEMA_LIMITS.maxNodes} subschemas (the host's limit)`);
  await compiled(js.schema, p);
  return { type: "json_schema", name: js.name, strict: js.strict !== false, schema: js.schema };
}

const RANK: Record<Applied, number> = { text: 0, json_object: 1, json_schema: 2 };

/** What the model will produce, given what it supports and what `onUnsupported` allows (-32010 otherwise). */
export function applyFormat(
  request: FormatRequest,
  support: StructuredSupport,
  onUnsupported: "error" | "json_object" | "text",
): { applied: Applied; downgraded: boolean } {
  if (RANK[support] >= RANK[request.type]) return { applied: request.type, downgraded: false };
  if (onUnsupported === "json_object" && RANK[support] >= RANK.json_object)
    return { applied: "json_object", downgraded: true };
  if (onUnsupported === "text") return { applied: "text", downgraded: true };
  throw refuse(
    SamplingError.UNSUPPORTED_RESPONSE_FORMAT,
    `UNSUPPORTED_RESPONSE_FORMAT: the model does not support responseFormat ${request.type} (it supports ${support === "text" ? "plain text only" : support}); set onUnsupported to ${support === "json_object" ? '"json_object" or ' : ""}"text" to accept a downgrade`,
  );
}

let ajv: Promise<Ajv> | undefined;
const cache = new Map<string, ValidateFunction>();

/** The schema compiled by Ajv, loaded on first need (it costs a few hundred ms to load). */
async function compiled(schema: Record<string, unknown>, p?: Params): Promise<ValidateFunction> {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    // The CLI bundle (esbuild, code splitting) gives this CommonJS module as the default export only.
    ajv ??= import("ajv/dist/2020.js").then(
      (m) => new (m.Ajv2020 ?? m.default)({ strict: false, validateFormats: false, allErrors: false }),
    );
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    try {
      validate = (await ajv).compile(rest);
    } catch (error) {
      if (p) throw p.bad(`responseFormat.json_schema.schema is not a valid JSON Schema: ${(error as Error).message}`);
      throw error;
    }
    if (cache.size >= 100) cache.delete(cache.keys().next().value!);
    cache.set(key, validate);
  }
  return validate;
}

/** Whether `text` is the structured answer the request asked for. */
export async function isStructuredValid(text: string, request: FormatRequest): Promise<boolean> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (request.type === "json_object") return isObject(value);
  return (await compiled(request.schema))(value) === true;
}

/** The model's text in the applied format: a JSON object for json_object, a document that satisfies the schema for json_schema. */
export function formatText(text: string, applied: Applied, request: FormatRequest): string {
  if (applied === "text") return text;
  if (applied === "json_object") {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isObject(parsed)) return text;
    } catch {
      // not JSON: wrapped below
    }
    return JSON.stringify({ text });
  }
  if (request.type !== "json_schema") return text;
  return JSON.stringify(instanceOf(request.schema, text, request.schema, 0));
}

const FORMATS: Record<string, string> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  email: "mock@example.com",
  uri: "https://example.com/mock",
  url: "https://example.com/mock",
  uuid: "00000000-0000-4000-8000-000000000000",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
};

function resolveRef(ref: string, root: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/"))
    node = isObject(node) ? node[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  return isObject(node) ? node : undefined;
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return (t.find((x) => x !== "null") ?? t[0]) as string | undefined;
  if (isObject(schema.properties) || Array.isArray(schema.required)) return "object";
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return "array";
  return undefined;
}

function numberOf(schema: Record<string, unknown>, integer: boolean): number {
  const min =
    typeof schema.minimum === "number"
      ? schema.minimum
      : typeof schema.exclusiveMinimum === "number"
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === "number"
      ? schema.maximum
      : typeof schema.exclusiveMaximum === "number"
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  let n = min ?? (max !== undefined && max < 0 ? max : 0);
  if (integer) n = Math.ceil(n);
  const step = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (step) n = Math.ceil(n / step) * step;
  return n;
}

/** A deterministic value satisfying the common JSON Schema keywords; strings carry the model's text. */
function instanceOf(
  schema: Record<string, unknown>,
  text: string,
  root: Record<string, unknown>,
  depth: number,
): unknown {
  if (depth > 32) return null;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, root);
    return target ? instanceOf(target, text, root, depth + 1) : null;
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const k of ["anyOf", "oneOf"]) {
    const options = schema[k];
    if (Array.isArray(options) && isObject(options[0]))
      return instanceOf({ ...schema, [k]: undefined, ...options[0] }, text, root, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.filter(isObject);
    const merged: Record<string, unknown> = Object.assign({ ...schema, allOf: undefined }, ...parts);
    merged.properties = Object.assign({}, obj(schema.properties), ...parts.map((s) => obj(s.properties)));
    merged.required = [schema, ...parts].flatMap((s) => (Array.isArray(s.required) ? s.required : []));
    return instanceOf(merged, text, root, depth + 1);
  }
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries(obj(schema.properties)))
        if (isObject(s)) out[k] = instanceOf(s, text, root, depth + 1);
      for (const k of Array.isArray(schema.required) ? schema.required : [])
        if (typeof k === "string" && !(k in out)) out[k] = text;
      return out;
    }
    case "array": {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.filter(isObject) : [];
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      const max = typeof schema.maxItems === "number" ? schema.maxItems : Math.max(min, prefix.length, 1);
      const count = Math.min(Math.max(min, prefix.length, 1), max);
      const items = isObject(schema.items) ? schema.items : {};
      return Array.from({ length: count }, (_, i) => instanceOf(prefix[i] ?? items, text, root, depth + 1));
    }
    case "integer":
      return numberOf(schema, true);
    case "number":
      return numberOf(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    case "string": {
      if (typeof schema.format === "string" && FORMATS[schema.format]) return FORMATS[schema.format];
      let s = text;
      const min = typeof schema.minLength === "number" ? schema.minLength : 0;
      const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
      if (s.length < min) s = s.padEnd(min, ".");
      return s.slice(0, max);
    }
    default:
      return text;
  }
}

const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
