/**
 * Mock rules: canned answers for reverse requests, read from JSONL files in two formats.
 * - ours: `{"method": "<wire method>", "match"?: <partial params>, "result" | "error" | "events"}`;
 * - the official mock-rule format of anna-app (long reference §16a):
 *   `{"ns": "llm", "method": "complete", "match"?: {"promptIncludes": "..."}, "result" | "events"}`.
 * Rows with a `match` are tried in file order and the first that matches wins; when none does,
 * the first row without `match` (the fallback) answers. Every row remembers whether it was used,
 * so a file that matched nothing the plugin asked for is reported, never silently ignored.
 */
import { readFileSync } from "node:fs";
import { ExecutaError } from "../../common/errors.js";
import { matches } from "../match.js";
import { METHODS } from "./namespaces.js";
import { isObject } from "./params.js";
import type { ErrorBody } from "./types.js";

export interface MockRule {
  /** The wire methods it answers (`llm/complete` answers both sampling/createMessage and agent/complete). */
  methods: readonly string[];
  /** `file:line`. */
  where: string;
  format: "executa" | "anna-app";
  /** The row's method and match as written, for reports. */
  label: string;
  match?: unknown;
  result?: unknown;
  error?: ErrorBody;
  /** agent/session.run: the run's frames (official rows wrap each in `{payload}`). */
  events?: Record<string, unknown>[];
  /** Set when the row can never answer a reverse request, with why. */
  never?: string;
  test(method: string, params: Record<string, unknown>): boolean;
}

export interface UnusedRule {
  where: string;
  label: string;
  why: string;
}

/** anna-app `ns/method` -> the wire methods it stands for. */
const OFFICIAL: Readonly<Record<string, readonly string[]>> = {
  "llm/complete": ["sampling/createMessage", "agent/complete"],
  "llm/embed": ["embeddings/create"],
};
const OFFICIAL_MATCH_KEYS = ["promptIncludes", "contentIncludes", "modeEquals", "tool_id", "method"] as const;
const TOOLS_INVOKE_WHY =
  "tools.invoke rows stand in for the plugin itself (anna-app answers the app without running the executa); here the real plugin runs, so the row never answers a reverse request";

/** The text a prompt-matching rule looks in: the messages, a prompt, a run's content, embedding inputs. */
export function promptText(params: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof params.systemPrompt === "string") parts.push(params.systemPrompt);
  for (const m of Array.isArray(params.messages) ? params.messages : []) {
    const content = isObject(m) ? m.content : undefined;
    if (typeof content === "string") parts.push(content);
    else if (isObject(content) && typeof content.text === "string") parts.push(content.text);
  }
  for (const key of ["prompt", "content"]) if (typeof params[key] === "string") parts.push(params[key] as string);
  if (typeof params.input === "string") parts.push(params.input);
  else if (Array.isArray(params.input)) parts.push(...params.input.filter((s): s is string => typeof s === "string"));
  return parts.length ? parts.join("\n") : JSON.stringify(params);
}

export class MockRuleSet {
  private readonly used = new Set<MockRule>();

  constructor(readonly rules: readonly MockRule[]) {}

  static merge(...sets: (MockRuleSet | undefined)[]): MockRuleSet | undefined {
    const present = sets.filter((s): s is MockRuleSet => s !== undefined);
    return present.length ? new MockRuleSet(present.flatMap((s) => s.rules)) : undefined;
  }

  /** The rule that answers this request (first match wins, then the fallback), marked used. */
  find(method: string, params: Record<string, unknown>): MockRule | undefined {
    const candidates = this.rules.filter((r) => r.methods.includes(method));
    const rule =
      candidates.find((r) => r.match !== undefined && r.test(method, params)) ??
      candidates.find((r) => r.match === undefined);
    if (rule) this.used.add(rule);
    return rule;
  }

  /** Rows that never answered anything, with why. */
  unused(): UnusedRule[] {
    return this.rules
      .filter((r) => !this.used.has(r))
      .map((r) => ({
        where: r.where,
        label: r.label,
        why: r.never ?? `the plugin made no ${r.methods.join(" or ")} request that it matched`,
      }));
  }
}

function lineError(where: string, message: string): ExecutaError {
  return new ExecutaError(`${where}: ${message}`, {
    hint: 'one rule per line: {"method": "sampling/createMessage", "match": {...}, "result": {...}} or {"ns": "llm", "method": "complete", "match": {"promptIncludes": "..."}, "result": {...}}',
  });
}

function errorBody(value: unknown, where: string): ErrorBody {
  if (!isObject(value) || !Number.isInteger(value.code) || typeof value.message !== "string") {
    throw lineError(where, `"error" must be {"code": <integer>, "message": "<text>"}`);
  }
  return { code: value.code as number, message: value.message, ...(value.data !== undefined && { data: value.data }) };
}

function answerOf(
  row: Record<string, unknown>,
  where: string,
  methods: readonly string[],
): Pick<MockRule, "result" | "error" | "events"> {
  const present = ["result", "error", "events"].filter((k) => row[k] !== undefined);
  if (present.length !== 1)
    throw lineError(
      where,
      `a rule needs exactly one of "result", "error" or "events" (found ${present.length ? present.join(", ") : "none"})`,
    );
  if (row.error !== undefined) return { error: errorBody(row.error, where) };
  if (row.events !== undefined) {
    if (!methods.includes("agent/session.run"))
      throw lineError(where, `"events" answers agent session.run only; use "result" for ${methods.join(", ")}`);
    if (!Array.isArray(row.events) || !row.events.every(isObject))
      throw lineError(
        where,
        `"events" must be a list of objects such as {"payload": {"event": "token", "text": "hi"}}`,
      );
    return { events: row.events as Record<string, unknown>[] };
  }
  return { result: row.result };
}

function officialRule(row: Record<string, unknown>, where: string): MockRule {
  if (typeof row.ns !== "string" || typeof row.method !== "string")
    throw lineError(where, `"ns" and "method" must be strings`);
  const key = `${row.ns}/${row.method}`;
  const label = `${row.ns}.${row.method}${row.match !== undefined ? ` ${JSON.stringify(row.match)}` : ""}`;
  const methods = OFFICIAL[key] ?? (Object.hasOwn(METHODS, key) ? [key] : key === "tools/invoke" ? [] : undefined);
  if (!methods) {
    const known = [
      "llm.complete",
      "llm.embed",
      "tools.invoke",
      ...Object.keys(METHODS)
        .filter((m) => !m.startsWith("sampling/"))
        .map((m) => m.replace("/", ".")),
    ];
    throw lineError(
      where,
      `unknown ns/method ${JSON.stringify(`${row.ns}.${row.method}`)}; known: ${known.join(", ")}`,
    );
  }
  let tests: ((params: Record<string, unknown>) => boolean)[] = [];
  if (row.match !== undefined) {
    if (!isObject(row.match)) throw lineError(where, `"match" must be an object such as {"promptIncludes": "weather"}`);
    tests = Object.entries(row.match).map(([k, v]) => {
      if (!(OFFICIAL_MATCH_KEYS as readonly string[]).includes(k))
        throw lineError(where, `unknown match key ${JSON.stringify(k)}; known: ${OFFICIAL_MATCH_KEYS.join(", ")}`);
      if (typeof v !== "string") throw lineError(where, `match.${k} must be a string`);
      if ((k === "tool_id" || k === "method") !== (key === "tools/invoke")) {
        throw lineError(
          where,
          key === "tools/invoke"
            ? `tools.invoke rows match on tool_id and method`
            : `match.${k} applies to tools.invoke rows only`,
        );
      }
      if (k === "promptIncludes" || k === "contentIncludes") return (params) => promptText(params).includes(v);
      if (k === "modeEquals") return (params) => (params.mode ?? "inline") === v;
      return () => false; // tool_id / method: tools.invoke only
    });
  }
  return {
    methods,
    where,
    format: "anna-app",
    label,
    ...(row.match !== undefined && { match: row.match }),
    ...answerOf(row, where, methods),
    ...(key === "tools/invoke" && { never: TOOLS_INVOKE_WHY }),
    test: (_method, params) => tests.every((t) => t(params)),
  };
}

function ownRule(row: Record<string, unknown>, where: string): MockRule {
  const method = row.method as string;
  if (!/^[^/\s]+\/\S+$/.test(method))
    throw lineError(
      where,
      `"method" must be a wire method such as "sampling/createMessage", got ${JSON.stringify(method)}`,
    );
  if (row.match !== undefined && !isObject(row.match))
    throw lineError(where, `"match" must be an object: the params to match partially, e.g. {"maxTokens": 10}`);
  const pattern = row.match;
  return {
    methods: [method],
    where,
    format: "executa",
    label: `${method}${pattern !== undefined ? ` ${JSON.stringify(pattern)}` : ""}`,
    ...(pattern !== undefined && { match: pattern }),
    ...answerOf(row, where, [method]),
    test: (_method, params) => matches(pattern, params),
  };
}

/** Parses rule lines (blank lines and `//` comments are skipped); `file` names them in errors. */
export function parseRules(text: string, file: string): MockRuleSet {
  const rules = text.split("\n").flatMap((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("//")) return [];
    const where = `${file}:${i + 1}`;
    let row: unknown;
    try {
      row = JSON.parse(trimmed);
    } catch (error) {
      throw lineError(where, `not JSON: ${(error as Error).message}`);
    }
    if (!isObject(row)) throw lineError(where, "a rule must be a JSON object");
    if (row.ns !== undefined) return [officialRule(row, where)];
    if (typeof row.method === "string") return [ownRule(row, where)];
    throw lineError(where, `a rule needs "method" (and "ns" in the anna-app format)`);
  });
  return new MockRuleSet(rules);
}

/** Reads a rules file (either format, or both mixed). */
export function loadRules(path: string): MockRuleSet {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ExecutaError(`cannot read the rules file ${path}: ${(error as Error).message}`, {
      hint: "give the path of a JSONL file of mock rules",
    });
  }
  return parseRules(text, path);
}
