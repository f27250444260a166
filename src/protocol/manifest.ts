/** The `describe` result: the manifest a plugin serves, and its canonical file form. */

export const PARAMETER_TYPES = ["string", "integer", "number", "boolean", "array", "object"] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Parameter {
  name: string;
  type: ParameterType;
  description?: string;
  required?: boolean;
  default?: Json;
  enum?: Json[];
  items?: { type: ParameterType; [key: string]: Json };
  items_type?: ParameterType;
}

export interface ToolDefinition {
  name: string;
  description: string;
  timeout?: number;
  streaming?: boolean;
  parameters?: Parameter[];
}

export interface Credential {
  name: string;
  display_name?: string;
  description?: string;
  required?: boolean;
  sensitive?: boolean;
  default?: string;
}

export interface Manifest {
  name: string;
  display_name?: string;
  version: string;
  description: string;
  author?: string;
  homepage?: string;
  icon?: string;
  category?: string;
  license?: string;
  tools: ToolDefinition[];
  credentials?: Credential[];
  host_capabilities?: string[];
  runtime?: { [key: string]: Json };
}

/** Key order of the canonical file; keys not listed follow in their own order. */
export const MANIFEST_KEY_ORDER = [
  "name",
  "display_name",
  "version",
  "description",
  "author",
  "homepage",
  "icon",
  "category",
  "license",
  "tools",
  "credentials",
  "host_capabilities",
  "runtime",
] as const;
export const TOOL_KEY_ORDER = ["name", "description", "timeout", "streaming", "parameters"] as const;
export const PARAMETER_KEY_ORDER = [
  "name",
  "type",
  "description",
  "required",
  "default",
  "enum",
  "items",
  "items_type",
] as const;
export const CREDENTIAL_KEY_ORDER = [
  "name",
  "display_name",
  "description",
  "required",
  "sensitive",
  "default",
] as const;

/** Plugin-level manifest fields that come from executa.json (everything but `name`, `version` and `tools`). */
export const PLUGIN_LEVEL_FIELDS = [
  "display_name",
  "description",
  "author",
  "homepage",
  "icon",
  "category",
  "license",
  "credentials",
  "host_capabilities",
  "runtime",
] as const;

function ordered(value: unknown, order: readonly string[]): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in source && source[key] !== undefined) out[key] = source[key];
  for (const key of Object.keys(source)) if (!(key in out) && source[key] !== undefined) out[key] = source[key];
  return out;
}

function mapList(value: unknown, fn: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(fn) : value;
}

/** The manifest with every object's keys in canonical order (values untouched). */
export function canonicalManifest(manifest: unknown): unknown {
  const top = ordered(manifest, MANIFEST_KEY_ORDER) as Record<string, unknown>;
  if (top === null || typeof top !== "object" || Array.isArray(top)) return top;
  return {
    ...top,
    ...("tools" in top && {
      tools: mapList(top.tools, (tool) => {
        const t = ordered(tool, TOOL_KEY_ORDER) as Record<string, unknown>;
        if (t === null || typeof t !== "object" || !("parameters" in t)) return t;
        return { ...t, parameters: mapList(t.parameters, (p) => ordered(p, PARAMETER_KEY_ORDER)) };
      }),
    }),
    ...("credentials" in top && { credentials: mapList(top.credentials, (c) => ordered(c, CREDENTIAL_KEY_ORDER)) }),
  };
}

/** The canonical `manifest.json` text: fixed key order, 2-space indent, LF, final newline. */
export function canonicalManifestJson(manifest: unknown): string {
  return JSON.stringify(canonicalManifest(manifest), null, 2) + "\n";
}
