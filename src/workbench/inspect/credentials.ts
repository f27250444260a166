/**
 * Credentials for the invokes of `executa inspect`: from the command line and from the page, held
 * in this process's memory only. Nothing the server hands out (trace, results, exports) carries a
 * value: a value is found in every form JSON can spell it (raw, `\"`-style escapes, `\u00e9` as
 * Python's `json.dumps` writes, `\u003c` as Go's `encoding/json` writes, either hex case), in
 * decoded JSON values (keys and strings, at any depth) and in plain text, and `[credential NAME]`
 * takes its place.
 */

import { ExecutaError } from "../../common/errors.js";

/** Shorter values would shred ordinary text; they are still removed from invoke contexts. */
const MIN_REDACTED_LENGTH = 4;
/** A name goes into the redaction mark, so it is kept plain. */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
/** The longest JSON spelling of one UTF-16 unit: `\uXXXX`. */
const MAX_UNIT_SPELLING = 6;

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};
const regexLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const hexEither = (hex: string) => [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("");
const unitEscape = (unit: number) => `\\\\u${hexEither(unit.toString(16).padStart(4, "0"))}`;

/** Every JSON spelling of the value, one alternation per character: no nesting, so matching stays linear in the text. */
function spellings(value: string): RegExp {
  let source = "";
  for (const char of value) {
    const units = [...Array(char.length).keys()].map((i) => char.charCodeAt(i));
    const options = [regexLiteral(char), units.map(unitEscape).join("")];
    if (SHORT_ESCAPES[char]) options.push(regexLiteral(SHORT_ESCAPES[char]));
    source += `(?:${options.join("|")})`;
  }
  return new RegExp(source, "g");
}

type Json = unknown;
const isPlainObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === "object" && !Array.isArray(v);
/** A plain own property, even for the key `__proto__` (which JSON.parse gives as one). */
const put = (target: object, key: string | number, value: Json) =>
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });

export class Credentials {
  private readonly values = new Map<string, { value: string; pattern: RegExp | undefined }>();

  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.set(name, value);
  }

  /** Sets (or, with an empty value, removes) one credential. */
  set(name: string, value: string): void {
    if (!NAME.test(name))
      throw new ExecutaError(
        `a credential name is letters, digits and _ . - (starting with a letter or _), got ${JSON.stringify(name.slice(0, 40))}`,
        { hint: "e.g. SIGNING_SECRET" },
      );
    if (value === "") this.values.delete(name);
    else this.values.set(name, { value, pattern: value.length < MIN_REDACTED_LENGTH ? undefined : spellings(value) });
  }

  get names(): string[] {
    return [...this.values.keys()].sort();
  }

  /** The values, for an invoke's context. */
  forInvoke(): Record<string, string> {
    return Object.fromEntries([...this.values].map(([name, { value }]) => [name, value]));
  }

  /**
   * How many characters at the end of a text cut from a longer stream may be the start of a value:
   * a stream is redacted whole up to that many characters from its end (TraceStore holds them back).
   */
  get holdBack(): number {
    let longest = 0;
    for (const { value, pattern } of this.values.values())
      if (pattern) longest = Math.max(longest, value.length * MAX_UNIT_SPELLING);
    return Math.max(0, longest - 1);
  }

  /** The text with every credential value, in any of its JSON spellings, replaced. */
  redact(text: string): string {
    let out = text;
    for (const [name, { pattern }] of this.values) if (pattern) out = out.replace(pattern, `[credential ${name}]`);
    return out;
  }

  /**
   * A JSON frame as text: decoded, redacted value by value, and written again when anything
   * changed (the original text otherwise). Text that does not parse (a cut frame) is redacted as text.
   */
  redactFrame(text: string): string {
    if (!this.holdBack) return text;
    let value: Json;
    try {
      value = JSON.parse(text) as Json;
    } catch {
      return this.redact(text);
    }
    const redacted = this.redactValue(value);
    if (redacted === value) return this.redact(text);
    try {
      return this.redact(JSON.stringify(redacted));
    } catch {
      return this.redact(text);
    }
  }

  /**
   * A JSON value with every credential value replaced in its keys and strings, and any
   * `credentials` object's values masked. The same value back when nothing changed. Walks without
   * recursion, so a value nested 100,000 deep is no problem.
   */
  redactValue<T>(value: T): T {
    if (!this.values.size) return value;
    const root: Record<string, Json> = { v: value };
    let changed = false;
    const copies = new Map<object, Record<string, Json> | Json[]>();
    const stack: [Record<string, Json> | Json[], string | number][] = [[root, "v"]];
    while (stack.length) {
      const [parent, key] = stack.pop()!;
      const v = (parent as Record<string, Json>)[key];
      if (typeof v === "string") {
        const r = this.redact(v);
        if (r !== v) (changed = true), put(parent, key, r);
        continue;
      }
      if (v === null || typeof v !== "object") continue;
      // Copy on the way down: the caller's value is never changed; a shared or cyclic part is copied once.
      const seen = copies.get(v);
      if (seen) {
        put(parent, key, seen);
        continue;
      }
      const copy: Record<string, Json> | Json[] = Array.isArray(v) ? [...(v as Json[])] : {};
      copies.set(v, copy);
      put(parent, key, copy);
      if (Array.isArray(copy)) {
        for (let i = 0; i < copy.length; i++) stack.push([copy, i]);
        continue;
      }
      for (const [k, item] of Object.entries(v as Record<string, Json>)) {
        const rk = this.redact(k);
        if (rk !== k) changed = true;
        if (k === "credentials" && isPlainObject(item)) {
          changed = true;
          put(copy, rk, Object.fromEntries(Object.keys(item).map((n) => [n, `[credential ${n}]`])));
          continue;
        }
        put(copy, rk, item);
        stack.push([copy, rk]);
      }
    }
    return (changed ? root.v : value) as T;
  }
}
