/**
 * `sampling/createMessage` and `agent/complete`: the request, the structured-output schema checked
 * against the host's limits before sending, and the result with its text read out.
 */
import type { InvokeRequests } from "./host.js";
import { isObject } from "./validate.js";

/** One message of a sampling request. */
export interface SamplingMessage {
  role: "user" | "assistant" | "system";
  content: { type: "text"; text: string };
}

/** Ask for JSON: any object, or one that satisfies a JSON Schema (`strict` is true when not given). */
export type ResponseFormat =
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name: string; strict?: boolean; schema: Record<string, unknown> } };

/** The arguments of `ctx.host.sample`: give `messages`, or a `prompt` that becomes one user message. */
export interface SampleRequest {
  messages?: SamplingMessage[];
  prompt?: string;
  /** Defaults to 1024; the host caps it at 8192. */
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  responseFormat?: ResponseFormat;
  /** When the model cannot honour `responseFormat`: `"error"` (the host's default), or downgrade to `"json_object"` or `"text"`. */
  onUnsupported?: "error" | "json_object" | "text";
  /** How long to wait for the host, in ms (90 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

/** The arguments of `ctx.host.agent.complete`: as `sample`, without structured output (120 s by default). */
export type CompleteRequest = Omit<SampleRequest, "responseFormat" | "onUnsupported">;

/** The host's completion, and what the runtime reads from it. */
export interface SampleResult {
  role?: string;
  content: { type: string; text?: string; [key: string]: unknown };
  model?: string;
  stopReason?: string;
  usage?: Record<string, number>;
  _meta?: Record<string, unknown>;
  /** `content.text` (a result without it is MALFORMED_RESULT). */
  text: string;
  /** The host checked the text against the response format (`_meta.responseFormat.structuredValid`). */
  structuredValid: boolean;
  /** The host fell back to a weaker format (`_meta.responseFormat.downgraded`). */
  downgraded: boolean;
  /** The JSON value of `text`, when a response format was asked for and the text is valid for it. */
  parsed?: unknown;
  [key: string]: unknown;
}

/** The host's limits on a json_schema response format. */
export const SCHEMA_LIMITS = { maxBytes: 32 * 1024, maxDepth: 8, maxNodes: 512, name: /^[a-zA-Z0-9_-]{1,64}$/ } as const;

/** Keywords whose value is one subschema (`items` may also be a list), a list of them, or a map of them. */
const ONE = ["additionalProperties", "items", "not", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "if", "then", "else", "additionalItems"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

function subschemas(schema: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const k of ONE) {
    const v = schema[k];
    if (isObject(v)) out.push(v);
    else if (k === "items" && Array.isArray(v)) out.push(...v.filter(isObject));
  }
  for (const k of LIST) {
    const v = schema[k];
    if (Array.isArray(v)) out.push(...v.filter(isObject));
  }
  for (const k of MAP) {
    const v = schema[k];
    if (isObject(v)) out.push(...Object.values(v).filter(isObject));
  }
  return out;
}

/** Nesting depth (the root is level 1) and subschema count (the root included), as the host counts them. */
function schemaSize(schema: Record<string, unknown>): { depth: number; nodes: number } {
  let nodes = 0;
  let depth = 0;
  const walk = (s: Record<string, unknown>, level: number) => {
    nodes++;
    depth = Math.max(depth, level);
    if (level > SCHEMA_LIMITS.maxDepth + 1 || nodes > SCHEMA_LIMITS.maxNodes + 1) return;
    for (const child of subschemas(s)) walk(child, level + 1);
  };
  walk(schema, 1);
  return { depth, nodes };
}

/** The response format as sent (`strict` filled in); throws INVALID_REQUEST past a limit. */
function checkedFormat(r: InvokeRequests, method: string, format: ResponseFormat): ResponseFormat {
  if (format.type !== "json_schema") return format;
  const js: unknown = format.json_schema;
  if (!isObject(js)) throw r.invalid(method, "responseFormat.json_schema must be an object {name, strict, schema}");
  if (typeof js.name !== "string" || !SCHEMA_LIMITS.name.test(js.name)) {
    throw r.invalid(method, `responseFormat.json_schema.name must match ${SCHEMA_LIMITS.name.source} (1 to 64 letters, digits, _ or -), got ${JSON.stringify(js.name)}`);
  }
  if (!isObject(js.schema)) throw r.invalid(method, "responseFormat.json_schema.schema must be a JSON Schema object");
  const bytes = Buffer.byteLength(JSON.stringify(js.schema));
  if (bytes > SCHEMA_LIMITS.maxBytes) {
    throw r.invalid(method, `the schema is ${bytes} bytes serialised; the host accepts at most ${SCHEMA_LIMITS.maxBytes}`);
  }
  const size = schemaSize(js.schema);
  if (size.depth > SCHEMA_LIMITS.maxDepth) {
    throw r.invalid(method, `the schema nests subschemas deeper than ${SCHEMA_LIMITS.maxDepth} levels, the host's limit`);
  }
  if (size.nodes > SCHEMA_LIMITS.maxNodes) {
    throw r.invalid(method, `the schema has more than ${SCHEMA_LIMITS.maxNodes} subschemas, the host's limit`);
  }
  return { ...format, json_schema: { ...format.json_schema, strict: typeof js.strict === "boolean" ? js.strict : true } };
}

function requestParams(r: InvokeRequests, method: string, req: SampleRequest): Record<string, unknown> {
  const messages = req.messages ?? [{ role: "user", content: { type: "text", text: req.prompt ?? "" } }];
  const params: Record<string, unknown> = { messages, maxTokens: req.maxTokens ?? 1024 };
  if (req.systemPrompt !== undefined) params.systemPrompt = req.systemPrompt;
  if (req.temperature !== undefined) params.temperature = req.temperature;
  if (req.stopSequences !== undefined) params.stopSequences = req.stopSequences;
  if (req.modelPreferences !== undefined) params.modelPreferences = req.modelPreferences;
  if (req.metadata !== undefined) params.metadata = req.metadata;
  if (req.responseFormat !== undefined) params.responseFormat = checkedFormat(r, method, req.responseFormat);
  if (req.onUnsupported !== undefined) params.onUnsupported = req.onUnsupported;
  return params;
}

/** Sends a sampling request (`sampling/createMessage`, or `agent/complete`) and reads its result. */
export async function sample(r: InvokeRequests, req: SampleRequest, method = "sampling/createMessage"): Promise<SampleResult> {
  const result = await r.call(method, requestParams(r, method, req), req.timeoutMs);
  const content = isObject(result.content) ? result.content : {};
  if (typeof content.text !== "string") throw r.malformed(method, "has no content.text string");
  const text = content.text;
  const meta = isObject(result._meta) && isObject(result._meta.responseFormat) ? result._meta.responseFormat : {};
  const structuredValid = meta.structuredValid === true;
  let parsed: unknown;
  if (req.responseFormat !== undefined && structuredValid) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return { ...result, content: { type: "text", ...content }, text, structuredValid, downgraded: meta.downgraded === true, parsed };
}
