/** The semantic difference between the committed manifest and the generated one. */
import type { Json } from "../protocol/index.js";

export type ChangeKind =
  | "tool-added"
  | "tool-removed"
  | "tools-reordered"
  | "parameter-added"
  | "parameter-removed"
  | "parameters-reordered"
  | "type-changed"
  | "required-changed"
  | "enum-changed"
  | "default-changed"
  | "description-changed"
  | "timeout-changed"
  | "items-changed"
  | "field-changed"
  | "bindings-changed"
  | "unreadable";

export interface Change {
  kind: ChangeKind;
  tool?: string;
  parameter?: string;
  /** The field that changed (plugin-level field, or a tool/parameter field). */
  field?: string;
  /** In the committed file. */
  before?: Json;
  /** Generated from the code. */
  after?: Json;
  message: string;
}

type Obj = Record<string, Json>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: Json | undefined) => (v === undefined ? "(none)" : JSON.stringify(v));

function byName(list: unknown): Map<string, Obj> {
  const out = new Map<string, Obj>();
  if (Array.isArray(list))
    for (const item of list) if (isObj(item) && typeof item.name === "string") out.set(item.name, item);
  return out;
}

const PARAM_FIELDS: [string, ChangeKind][] = [
  ["type", "type-changed"],
  ["required", "required-changed"],
  ["enum", "enum-changed"],
  ["default", "default-changed"],
  ["description", "description-changed"],
  ["items", "items-changed"],
  ["items_type", "items-changed"],
];

function compareParams(tool: string, before: unknown, after: unknown, out: Change[]): void {
  const b = byName(before);
  const a = byName(after);
  for (const [name, p] of a) {
    const old = b.get(name);
    if (!old) {
      out.push({
        kind: "parameter-added",
        tool,
        parameter: name,
        after: p,
        message: `tool '${tool}': parameter '${name}' added (${String(p.type)})`,
      });
      continue;
    }
    for (const [field, kind] of PARAM_FIELDS) {
      if (!same(old[field], p[field])) {
        out.push({
          kind,
          tool,
          parameter: name,
          field,
          before: old[field],
          after: p[field],
          message: `tool '${tool}': parameter '${name}': ${field} ${show(old[field])} -> ${show(p[field])}`,
        });
      }
    }
  }
  for (const name of b.keys())
    if (!a.has(name))
      out.push({
        kind: "parameter-removed",
        tool,
        parameter: name,
        message: `tool '${tool}': parameter '${name}' removed`,
      });
  const common = (m: Map<string, Obj>, other: Map<string, Obj>) => [...m.keys()].filter((k) => other.has(k));
  if (!same(common(b, a), common(a, b))) {
    out.push({
      kind: "parameters-reordered",
      tool,
      before: [...b.keys()],
      after: [...a.keys()],
      message: `tool '${tool}': parameters reordered: ${[...a.keys()].join(", ")}`,
    });
  }
}

export function manifestChanges(before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  if (!isObj(before) || !isObj(after)) return out;
  for (const key of new Set([...Object.keys(after), ...Object.keys(before)])) {
    if (key === "tools" || same(before[key], after[key])) continue;
    out.push({
      kind: "field-changed",
      field: key,
      before: before[key],
      after: after[key],
      message: `${key}: ${show(before[key])} -> ${show(after[key])}`,
    });
  }
  const b = byName(before.tools);
  const a = byName(after.tools);
  for (const [name, t] of a) {
    const old = b.get(name);
    if (!old) {
      out.push({ kind: "tool-added", tool: name, after: t, message: `tool '${name}' added` });
      continue;
    }
    if (!same(old.description, t.description)) {
      out.push({
        kind: "description-changed",
        tool: name,
        field: "description",
        before: old.description,
        after: t.description,
        message: `tool '${name}': description changed`,
      });
    }
    if (!same(old.timeout, t.timeout)) {
      out.push({
        kind: "timeout-changed",
        tool: name,
        field: "timeout",
        before: old.timeout,
        after: t.timeout,
        message: `tool '${name}': timeout ${show(old.timeout)} -> ${show(t.timeout)}`,
      });
    }
    if (!same(old.streaming, t.streaming)) {
      out.push({
        kind: "field-changed",
        tool: name,
        field: "streaming",
        before: old.streaming,
        after: t.streaming,
        message: `tool '${name}': streaming ${show(old.streaming)} -> ${show(t.streaming)}`,
      });
    }
    compareParams(name, old.parameters, t.parameters, out);
  }
  for (const name of b.keys())
    if (!a.has(name)) out.push({ kind: "tool-removed", tool: name, message: `tool '${name}' removed` });
  const common = (m: Map<string, Obj>, other: Map<string, Obj>) => [...m.keys()].filter((k) => other.has(k));
  if (!same(common(b, a), common(a, b)))
    out.push({
      kind: "tools-reordered",
      before: [...b.keys()],
      after: [...a.keys()],
      message: `tools reordered: ${[...a.keys()].join(", ")}`,
    });
  return out;
}
