/**
 * The value language of the runtime vectors (docs/runtime-contract.md, "The vector file"):
 * placeholders in the frames a vector sends, and patterns for the frames it expects.
 */
import { isAbsolute } from "node:path";

const MATCHERS = [
  "$any",
  "$string",
  "$number",
  "$integer",
  "$boolean",
  "$object",
  "$array",
  "$abspath",
  "$manifest",
] as const;
const PATTERN_FORMS = ["$contains", "$match", "$range", "$repeat", "$within_ms_of_now", "$literal"] as const;
const SEND_FORMS = ["$repeat", "$now_ms", "$literal"] as const;
export const FILL = "$fill";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The `$…` form of an object (its one key that starts with `$`, other than `$partial`), if any. */
function formOf(value: Obj): string | undefined {
  return Object.keys(value).find((k) => k.startsWith("$") && k !== "$partial");
}

/** Problems with a pattern (unknown `$` names, malformed forms), each with its JSON path. */
export function checkPattern(pattern: unknown, path = "$"): string[] {
  if (typeof pattern === "string") {
    return pattern.startsWith("$") && !(MATCHERS as readonly string[]).includes(pattern)
      ? [`${path}: unknown matcher ${JSON.stringify(pattern)} (use {"$literal": …} for a string that starts with $)`]
      : [];
  }
  if (Array.isArray(pattern)) return pattern.flatMap((p, i) => checkPattern(p, `${path}[${i}]`));
  if (!isObj(pattern)) return [];
  const form = formOf(pattern);
  if (form === undefined)
    return Object.entries(pattern).flatMap(([k, p]) => (k === "$partial" ? [] : checkPattern(p, `${path}.${k}`)));
  if (!(PATTERN_FORMS as readonly string[]).includes(form)) return [`${path}: unknown pattern form ${form}`];
  const arg = pattern[form];
  switch (form) {
    case "$contains":
    case "$match":
      return typeof arg === "string" ? [] : [`${path}: ${form} takes a string`];
    case "$range":
    case "$within_ms_of_now":
      return Array.isArray(arg) && arg.length === 2 && arg.every((n) => typeof n === "number")
        ? []
        : [`${path}: ${form} takes [low, high]`];
    case "$repeat":
      return typeof arg === "string" && Number.isInteger(pattern.count)
        ? []
        : [`${path}: $repeat takes a string and an integer "count"`];
    default:
      return [];
  }
}

/** Problems with a value to send (unknown `$` forms). */
export function checkSendValue(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => checkSendValue(v, `${path}[${i}]`));
  if (typeof value === "string")
    return value.startsWith("$") && value !== FILL ? [`${path}: unknown placeholder ${JSON.stringify(value)}`] : [];
  if (!isObj(value)) return [];
  const form = formOf(value);
  if (form === undefined) return Object.entries(value).flatMap(([k, v]) => checkSendValue(v, `${path}.${k}`));
  if (!(SEND_FORMS as readonly string[]).includes(form)) return [`${path}: unknown placeholder ${form}`];
  if (form === "$repeat" && !(typeof value.$repeat === "string" && Number.isInteger(value.count)))
    return [`${path}: $repeat takes a string and an integer "count"`];
  if (form === "$now_ms" && typeof value.$now_ms !== "number")
    return [`${path}: $now_ms takes a number of ms to add to now`];
  return [];
}

/** A value to send with its placeholders expanded (`$fill` stays, for `fillTo`). */
export function expandSendValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandSendValue);
  if (!isObj(value)) return value;
  if ("$repeat" in value) return String(value.$repeat).repeat(Number(value.count));
  if ("$now_ms" in value) return Date.now() + Number(value.$now_ms);
  if ("$literal" in value) return value.$literal;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandSendValue(v)]));
}

/** Serialises a frame; its `"$fill"` string grows so that the whole text is `bytes` bytes of UTF-8. */
export function serialiseFrame(value: unknown, bytes?: number): Buffer {
  const text = JSON.stringify(value);
  if (bytes === undefined) return Buffer.from(text);
  const marker = JSON.stringify(FILL);
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`"bytes" needs a "${FILL}" string in the frame`);
  const rest = bytes - Buffer.byteLength(text) + Buffer.byteLength(marker) - 2;
  if (rest < 0) throw new Error(`the frame is already longer than ${bytes} bytes`);
  return Buffer.from(`${text.slice(0, at)}"${"a".repeat(rest)}"${text.slice(at + marker.length)}`);
}

export interface MatchContext {
  /** What `"$manifest"` stands for: the plugin's manifest, compared with its key order. */
  manifest?: unknown;
}

const show = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 120)}… (${text.length} chars)` : text;
};

/** Why `value` does not match `pattern`, with the JSON path of the first difference; undefined when it matches. */
export function mismatch(pattern: unknown, value: unknown, ctx: MatchContext = {}, path = "$"): string | undefined {
  const fail = (want: string) => `${path}: want ${want}, got ${show(value)}`;
  if (typeof pattern === "string" && pattern.startsWith("$")) {
    switch (pattern) {
      case "$any":
        return undefined;
      case "$string":
      case "$number":
      case "$boolean":
        return typeof value === pattern.slice(1) ? undefined : fail(`a ${pattern.slice(1)}`);
      case "$integer":
        return Number.isInteger(value) ? undefined : fail("an integer");
      case "$object":
        return isObj(value) ? undefined : fail("an object");
      case "$array":
        return Array.isArray(value) ? undefined : fail("an array");
      case "$abspath":
        return typeof value === "string" && isAbsolute(value) ? undefined : fail("an absolute path");
      case "$manifest":
        return JSON.stringify(value) === JSON.stringify(ctx.manifest)
          ? undefined
          : fail("the manifest exactly as committed (same keys, same order)");
    }
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(value)) return fail("an array");
    if (value.length !== pattern.length) return fail(`${pattern.length} items`);
    for (let i = 0; i < pattern.length; i++) {
      const m = mismatch(pattern[i], value[i], ctx, `${path}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (!isObj(pattern)) return pattern === value ? undefined : fail(show(pattern));
  const form = formOf(pattern);
  if (form !== undefined) return formMismatch(form, pattern, value, fail);
  if (!isObj(value)) return fail("an object");
  for (const [key, p] of Object.entries(pattern)) {
    if (key === "$partial") continue;
    if (!Object.hasOwn(value, key)) {
      if (p === "$any") continue;
      return `${path}: missing key ${JSON.stringify(key)}`;
    }
    const m = mismatch(p, value[key], ctx, `${path}.${key}`);
    if (m) return m;
  }
  if (pattern.$partial !== true) {
    const extra = Object.keys(value).filter((k) => !Object.hasOwn(pattern, k));
    if (extra.length > 0) return `${path}: unexpected key ${JSON.stringify(extra[0])} (${show(value[extra[0]!])})`;
  }
  return undefined;
}

function formMismatch(form: string, pattern: Obj, value: unknown, fail: (want: string) => string): string | undefined {
  const arg = pattern[form];
  switch (form) {
    case "$literal":
      return JSON.stringify(arg) === JSON.stringify(value) ? undefined : fail(show(arg));
    case "$contains":
      return typeof value === "string" && value.includes(String(arg))
        ? undefined
        : fail(`a string containing ${show(arg)}`);
    case "$match":
      return typeof value === "string" && new RegExp(String(arg), "u").test(value)
        ? undefined
        : fail(`a string matching /${String(arg)}/`);
    case "$range": {
      const [lo, hi] = arg as [number, number];
      return typeof value === "number" && value >= lo && value <= hi ? undefined : fail(`a number in [${lo}, ${hi}]`);
    }
    case "$within_ms_of_now": {
      const [lo, hi] = arg as [number, number];
      const offset = typeof value === "number" ? value - Date.now() : NaN;
      return offset >= lo && offset <= hi ? undefined : fail(`now + [${lo}, ${hi}] ms (it was now + ${offset} ms)`);
    }
    case "$repeat": {
      const want = String(arg).repeat(Number(pattern.count));
      return value === want ? undefined : fail(`${show(arg)} repeated ${pattern.count} times`);
    }
    default:
      return fail(`the unknown form ${form}`);
  }
}

/** Matches values to patterns one to one in any order; undefined when some assignment works. */
export function unorderedMismatch(patterns: unknown[], values: unknown[], ctx: MatchContext = {}): string | undefined {
  if (patterns.length !== values.length) return `want ${patterns.length} frames, got ${values.length}`;
  const used = new Array<boolean>(values.length).fill(false);
  const assign = (i: number): boolean => {
    if (i === patterns.length) return true;
    for (let j = 0; j < values.length; j++) {
      if (used[j] || mismatch(patterns[i], values[j], ctx) !== undefined) continue;
      used[j] = true;
      if (assign(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  if (assign(0)) return undefined;
  const unmatched = patterns.findIndex((p) => values.every((v) => mismatch(p, v, ctx) !== undefined));
  if (unmatched >= 0) {
    const closest = values.map((v) => mismatch(patterns[unmatched], v, ctx)).join("; ");
    return `no frame matches expected #${unmatched + 1} (${closest})`;
  }
  return "the frames match the patterns only if one frame is used twice";
}
