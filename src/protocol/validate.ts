import { isHostCapability, unknownCapabilityMessage } from "./capabilities.js";
import type { Diagnostic } from "./diagnostics.js";
import { MANIFEST_KEY_ORDER, PARAMETER_KEY_ORDER, PARAMETER_TYPES, TOOL_KEY_ORDER } from "./manifest.js";

export interface ValidateOptions {
  /** Where the manifest came from, for messages (a file path or "describe"). */
  source?: string;
}

export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
export const CREDENTIAL_NAME_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;
/** SemVer 2.0.0, https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
/** `runtime.type` values seen in the field; nothing is normative, so others are warnings. */
export const KNOWN_RUNTIME_TYPES = ["node", "npm", "python", "uv", "go", "binary"] as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether a JSON value fits a manifest parameter type. */
export function valueMatchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return false;
  }
}

class Collector {
  readonly out: Diagnostic[] = [];
  error(path: string, message: string, hint?: string): void {
    this.out.push({ severity: "error", path, message, ...(hint && { hint }) });
  }
  warning(path: string, message: string, hint?: string): void {
    this.out.push({ severity: "warning", path, message, ...(hint && { hint }) });
  }
}

const OPTIONAL_STRINGS = ["display_name", "author", "homepage", "icon", "category", "license"] as const;
const KNOWN_TOP = new Set<string>([...MANIFEST_KEY_ORDER, "tags"]);
const KNOWN_TOOL = new Set<string>(TOOL_KEY_ORDER);
const KNOWN_PARAM = new Set<string>(PARAMETER_KEY_ORDER);
const TYPES = PARAMETER_TYPES as readonly string[];
const TYPE_LIST = PARAMETER_TYPES.join(", ");

function validateItems(c: Collector, path: string, p: Obj): void {
  const items = p.items;
  const itemsType = p.items_type;
  if (p.type !== "array") {
    if (items !== undefined || itemsType !== undefined)
      c.warning(`${path}.${items !== undefined ? "items" : "items_type"}`, "items only apply to array parameters");
    return;
  }
  if (items === undefined && itemsType === undefined) {
    c.error(
      path,
      "an array parameter needs `items` (or `items_type`)",
      'add "items": {"type": "string"}; without it LLMs tend to send JSON-encoded strings',
    );
    return;
  }
  if (items !== undefined) {
    if (!isObject(items)) c.error(`${path}.items`, 'items must be an object like {"type": "string"}');
    else if (!TYPES.includes(items.type as string))
      c.error(`${path}.items.type`, `items.type must be one of ${TYPE_LIST}, not ${JSON.stringify(items.type)}`);
    else if (Array.isArray(items.enum)) {
      items.enum.forEach((v, k) => {
        if (!valueMatchesType(v, items.type as string))
          c.error(
            `${path}.items.enum[${k}]`,
            `enum value ${JSON.stringify(v)} is not of the item type ${items.type as string}`,
          );
      });
    }
  }
  if (itemsType !== undefined && !TYPES.includes(itemsType as string)) {
    c.error(`${path}.items_type`, `items_type must be one of ${TYPE_LIST}, not ${JSON.stringify(itemsType)}`);
  }
  if (isObject(items) && itemsType !== undefined && items.type !== itemsType) {
    c.error(
      `${path}.items_type`,
      `items.type (${String(items.type)}) and items_type (${String(itemsType)}) disagree`,
      "keep only items",
    );
  }
}

function itemType(p: Obj): string {
  if (isObject(p.items) && typeof p.items.type === "string") return p.items.type;
  return typeof p.items_type === "string" ? p.items_type : "string";
}

function validateParameter(
  c: Collector,
  path: string,
  p: unknown,
  seen: Set<string>,
  tool: string,
): string | undefined {
  if (!isObject(p)) {
    c.error(path, "a parameter must be an object");
    return undefined;
  }
  const name = p.name;
  if (!nonEmptyString(name)) c.error(`${path}.name`, "a parameter needs a name");
  else if (seen.has(name)) c.error(`${path}.name`, `parameter '${name}' appears twice in tool '${tool}'`);
  else seen.add(name);
  const type = p.type;
  if (!TYPES.includes(type as string)) {
    c.error(`${path}.type`, `type must be one of ${TYPE_LIST}, not ${JSON.stringify(type)}`);
    return typeof name === "string" ? name : undefined;
  }
  const label = typeof name === "string" ? `'${name}'` : "this parameter";
  if (p.description === undefined || (typeof p.description === "string" && p.description.trim() === "")) {
    c.warning(
      `${path}.description`,
      `parameter ${label} of tool '${tool}' has no description`,
      "the LLM reads it to fill the argument; describe it in the source",
    );
  } else if (typeof p.description !== "string") c.error(`${path}.description`, "description must be a string");
  if (p.required !== undefined && typeof p.required !== "boolean")
    c.error(`${path}.required`, "required must be true or false");
  if (p.enum !== undefined) {
    if (!Array.isArray(p.enum) || p.enum.length === 0) c.error(`${path}.enum`, "enum must be a non-empty list");
    else {
      const keys = new Set<string>();
      p.enum.forEach((v, k) => {
        if (!valueMatchesType(v, type as string))
          c.error(`${path}.enum[${k}]`, `enum value ${JSON.stringify(v)} is not of type ${type as string}`);
        const key = JSON.stringify(v);
        if (keys.has(key)) c.error(`${path}.enum[${k}]`, `enum value ${key} appears twice`);
        keys.add(key);
      });
    }
  }
  if ("default" in p) {
    const d = p.default;
    const required = p.required !== false;
    if (d === null) {
      if (required) c.error(`${path}.default`, `a required parameter cannot default to null`);
    } else if (!valueMatchesType(d, type as string)) {
      c.error(
        `${path}.default`,
        `default ${JSON.stringify(d)} is not of type ${type as string} (it is ${jsonType(d)})`,
      );
    } else {
      if (Array.isArray(p.enum) && !p.enum.some((v) => JSON.stringify(v) === JSON.stringify(d))) {
        c.error(`${path}.default`, `default ${JSON.stringify(d)} is not one of the enum values`);
      }
      if (type === "array" && Array.isArray(d)) {
        const it = itemType(p);
        d.forEach((v, k) => {
          if (!valueMatchesType(v, it))
            c.error(`${path}.default[${k}]`, `default item ${JSON.stringify(v)} is not of the item type ${it}`);
        });
      }
    }
    if (p.required === true)
      c.warning(
        `${path}.default`,
        `required parameter ${label} has a default, which is never used`,
        "make it optional (required: false) or drop the default",
      );
  }
  validateItems(c, path, p);
  for (const key of Object.keys(p))
    if (!KNOWN_PARAM.has(key)) c.warning(`${path}.${key}`, `unknown parameter field '${key}'`);
  return typeof name === "string" ? name : undefined;
}

/** A parameter's name and where it is, for the rules across tools and credentials. */
interface NamedParameter {
  name: string;
  path: string;
}

function validateTool(
  c: Collector,
  path: string,
  t: unknown,
  names: Map<string, number>,
  index: number,
  paramNames: NamedParameter[],
): void {
  if (!isObject(t)) {
    c.error(path, "a tool must be an object");
    return;
  }
  const name = t.name;
  if (typeof name !== "string" || name === "") c.error(`${path}.name`, "a tool needs a name");
  else {
    if (!TOOL_NAME_PATTERN.test(name)) {
      c.error(
        `${path}.name`,
        `tool name '${name}' does not match ${TOOL_NAME_PATTERN.source}`,
        "use letters, digits, '_', '.' and '-', starting with a letter or '_', at most 64 characters",
      );
    }
    const first = names.get(name);
    if (first !== undefined)
      c.error(
        `${path}.name`,
        `tool name '${name}' is used twice (also $.tools[${first}])`,
        "tool names must be unique",
      );
    else names.set(name, index);
  }
  const label = typeof name === "string" ? `'${name}'` : `#${index}`;
  if (!nonEmptyString(t.description))
    c.error(
      `${path}.description`,
      `tool ${label} has no description`,
      "the LLM chooses tools by their description; write one",
    );
  if (t.timeout !== undefined && !(typeof t.timeout === "number" && Number.isInteger(t.timeout) && t.timeout > 0)) {
    c.error(`${path}.timeout`, `timeout must be a whole number of seconds above 0, not ${JSON.stringify(t.timeout)}`);
  }
  if (t.streaming !== undefined && typeof t.streaming !== "boolean")
    c.error(`${path}.streaming`, "streaming must be true or false");
  for (const key of ["input_schema", "inputSchema"]) {
    if (key in t) {
      c.error(
        `${path}.${key}`,
        `MCP-style ${key} is not read by the host: the LLM would see no arguments`,
        'declare the arguments as "parameters": [{"name", "type", ...}]',
      );
    }
  }
  if (t.parameters !== undefined) {
    if (!Array.isArray(t.parameters)) c.error(`${path}.parameters`, "parameters must be a list");
    else {
      const seen = new Set<string>();
      t.parameters.forEach((p, j) => {
        const pn = validateParameter(
          c,
          `${path}.parameters[${j}]`,
          p,
          seen,
          typeof name === "string" ? name : `#${index}`,
        );
        if (pn) paramNames.push({ name: pn, path: `${path}.parameters[${j}].name` });
      });
    }
  }
  for (const key of Object.keys(t)) {
    if (!KNOWN_TOOL.has(key) && key !== "input_schema" && key !== "inputSchema")
      c.warning(`${path}.${key}`, `unknown tool field '${key}'`);
  }
}

function validateCredentials(c: Collector, value: unknown, paramNames: NamedParameter[]): void {
  if (value === undefined) return;
  const parametersByCredentialName = new Map<string, NamedParameter[]>();
  for (const p of paramNames) {
    const key = p.name.toUpperCase();
    const same = parametersByCredentialName.get(key);
    if (same) same.push(p);
    else parametersByCredentialName.set(key, [p]);
  }
  if (!Array.isArray(value)) {
    c.error("$.credentials", "credentials must be a list");
    return;
  }
  const seen = new Set<string>();
  value.forEach((cred, i) => {
    const path = `$.credentials[${i}]`;
    if (!isObject(cred)) {
      c.error(path, "a credential must be an object");
      return;
    }
    const name = cred.name;
    if (typeof name !== "string" || !CREDENTIAL_NAME_PATTERN.test(name)) {
      c.error(
        `${path}.name`,
        `credential name ${JSON.stringify(name)} must be UPPER_SNAKE_CASE`,
        "e.g. WEATHER_API_KEY",
      );
    } else {
      if (seen.has(name)) c.error(`${path}.name`, `credential ${name} is declared twice`);
      seen.add(name);
      for (const p of parametersByCredentialName.get(name) ?? []) {
        c.error(
          p.path,
          `parameter '${p.name}' is also the credential ${name}`,
          "credentials reach the tool through the context, never as parameters the LLM fills; remove the parameter",
        );
      }
    }
    if (cred.display_name === undefined)
      c.warning(
        `${path}.display_name`,
        `credential ${String(name)} has no display_name`,
        "the host shows it in the settings form",
      );
    for (const key of ["display_name", "description", "default"]) {
      if (cred[key] !== undefined && typeof cred[key] !== "string")
        c.error(`${path}.${key}`, `${key} must be a string`);
    }
    for (const key of ["required", "sensitive"]) {
      if (cred[key] !== undefined && typeof cred[key] !== "boolean")
        c.error(`${path}.${key}`, `${key} must be true or false`);
    }
  });
}

function validateHostCapabilities(c: Collector, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    c.error("$.host_capabilities", "host_capabilities must be a list of strings");
    return;
  }
  const seen = new Set<string>();
  value.forEach((cap, i) => {
    const path = `$.host_capabilities[${i}]`;
    if (typeof cap !== "string") c.error(path, "a host capability must be a string");
    else if (!isHostCapability(cap)) {
      const { message, hint } = unknownCapabilityMessage(cap);
      c.error(path, message, hint);
    } else if (seen.has(cap)) c.warning(path, `${cap} is listed twice`);
    if (typeof cap === "string") seen.add(cap);
  });
}

/**
 * Every rule a manifest must follow (issue: executa manifest, section 3, and the reference's
 * section 19 checks that fit a manifest). Returns errors and warnings with JSON paths; an empty
 * list means valid.
 */
export function validateManifest(manifest: unknown, _options: ValidateOptions = {}): Diagnostic[] {
  if (!isObject(manifest)) {
    return [{ severity: "error", path: "$", message: "the manifest must be a JSON object" }];
  }
  const c = new Collector();
  const m = manifest;
  if (!nonEmptyString(m.name)) c.error("$.name", "the manifest needs a name", "the name is executa.json's tool_id");
  else if (!/^[a-z0-9][a-z0-9._-]*$/.test(m.name))
    c.warning("$.name", `name '${m.name}' is not a lowercase kebab- or snake-case label`);
  if (typeof m.version !== "string") c.error("$.version", "the manifest needs a version", 'e.g. "0.1.0"');
  else if (!SEMVER_PATTERN.test(m.version))
    c.error("$.version", `version '${m.version}' is not SemVer (MAJOR.MINOR.PATCH)`, 'e.g. "1.0.0"');
  if (!nonEmptyString(m.description))
    c.error("$.description", "the manifest needs a description", "set description in executa.json");
  for (const key of OPTIONAL_STRINGS) {
    if (m[key] !== undefined && typeof m[key] !== "string") c.error(`$.${key}`, `${key} must be a string`);
  }
  if (m.display_name === undefined)
    c.warning("$.display_name", "no display_name; hosts show the name instead", "set display_name in executa.json");
  if (typeof m.homepage === "string" && !/^https?:\/\/\S+$/.test(m.homepage))
    c.warning("$.homepage", `homepage '${m.homepage}' is not an http(s) URL`);
  if (m.runtime !== undefined) {
    if (!isObject(m.runtime)) c.error("$.runtime", "runtime must be an object");
    else if (m.runtime.type !== undefined && !(KNOWN_RUNTIME_TYPES as readonly unknown[]).includes(m.runtime.type)) {
      c.warning(
        "$.runtime.type",
        `runtime.type ${JSON.stringify(m.runtime.type)} is none of ${KNOWN_RUNTIME_TYPES.join(", ")}`,
      );
    }
  }
  if (m.tags !== undefined && !(Array.isArray(m.tags) && m.tags.every((t) => typeof t === "string")))
    c.error("$.tags", "tags must be a list of strings");

  const paramNames: NamedParameter[] = [];
  if (!Array.isArray(m.tools)) c.error("$.tools", "the manifest needs a tools list");
  else {
    if (m.tools.length === 0) c.error("$.tools", "the manifest declares no tools", "a plugin needs at least one tool");
    const names = new Map<string, number>();
    m.tools.forEach((t, i) => validateTool(c, `$.tools[${i}]`, t, names, i, paramNames));
  }
  validateCredentials(c, m.credentials, paramNames);
  validateHostCapabilities(c, m.host_capabilities);
  for (const key of Object.keys(m)) if (!KNOWN_TOP.has(key)) c.warning(`$.${key}`, `unknown manifest field '${key}'`);
  return c.out;
}
