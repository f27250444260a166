/**
 * Credentials for the invokes of `executa inspect`: from `--credential` and from the page, held in
 * this process's memory only. Nothing the server hands out (trace, results, exports) carries a
 * value: every text passes through `redact`, which puts `[credential NAME]` in its place.
 */

import { ExecutaError } from "../../common/errors.js";

/** Shorter values would shred ordinary text; they are still removed from invoke contexts. */
const MIN_REDACTED_LENGTH = 4;
/** A name goes into the redaction mark, so it is kept plain. */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

export class Credentials {
  private readonly values = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.set(name, value);
  }

  /** Sets (or, with an empty value, removes) one credential. */
  set(name: string, value: string): void {
    if (!NAME.test(name)) throw new ExecutaError(`a credential name is letters, digits and _ . - (starting with a letter or _), got ${JSON.stringify(name.slice(0, 40))}`, { hint: "e.g. SIGNING_SECRET" });
    if (value === "") this.values.delete(name);
    else this.values.set(name, value);
  }

  get names(): string[] {
    return [...this.values.keys()].sort();
  }

  /** The values, for an invoke's context. */
  forInvoke(): Record<string, string> {
    return Object.fromEntries(this.values);
  }

  /** The text with every credential value (raw or as escaped inside a JSON string) replaced. */
  redact(text: string): string {
    let out = text;
    for (const [name, value] of this.values) {
      if (value.length < MIN_REDACTED_LENGTH) continue;
      const mark = `[credential ${name}]`;
      out = out.split(value).join(mark);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) out = out.split(escaped).join(mark);
    }
    return out;
  }

  /** A JSON value with every credential value replaced, and any `credentials` object's values masked. */
  redactValue<T>(value: T): T {
    if (value === undefined) return value;
    const masked = JSON.stringify(value, (key, v: unknown) =>
      key === "credentials" && v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.keys(v).map((k) => [k, `[credential ${k}]`]))
        : v,
    );
    return JSON.parse(this.redact(masked)) as T;
  }
}
