/**
 * Answers and request validation shared by every service: a service throws `Refusal` with the
 * namespace's code and a message that says what is wrong and how to fix it.
 */
import type { ErrorBody } from "./types.js";

export class Refusal extends Error {
  constructor(readonly body: ErrorBody) {
    super(body.message);
  }
}

export function refuse(code: number, message: string, data?: unknown): Refusal {
  return new Refusal({ code, message, ...(data !== undefined && { data }) });
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

const kind = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;

/** Typed reads of one request's params; every problem is a Refusal with the namespace's INVALID_REQUEST code. */
export class Params {
  constructor(
    readonly raw: Record<string, unknown>,
    private readonly method: string,
    private readonly invalid: number,
  ) {}

  bad(message: string): Refusal {
    return refuse(this.invalid, `${this.method}: ${message}`);
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  string(key: string, options: { max?: number; nonEmpty?: boolean } = {}): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") throw this.bad(`${key} must be a string, got ${kind(v)}`);
    if (options.nonEmpty && v.length === 0) throw this.bad(`${key} must not be empty`);
    if (options.max !== undefined && v.length > options.max)
      throw this.bad(`${key} is ${v.length} characters; at most ${options.max} are allowed`);
    return v;
  }

  requiredString(key: string, options: { max?: number } = {}): string {
    const v = this.string(key, { ...options, nonEmpty: true });
    if (v === undefined) throw this.bad(`${key} is required`);
    return v;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.string(key);
    if (v === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(v))
      throw this.bad(
        `${key} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${JSON.stringify(v)}`,
      );
    return v as T;
  }

  integer(key: string, options: { min?: number; max?: number } = {}): number | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v))
      throw this.bad(`${key} must be an integer, got ${typeof v === "number" ? v : kind(v)}`);
    if (options.min !== undefined && v < options.min)
      throw this.bad(`${key} must be at least ${options.min}, got ${v}`);
    if (options.max !== undefined && v > options.max) throw this.bad(`${key} must be at most ${options.max}, got ${v}`);
    return v;
  }

  number(key: string, options: { min?: number; max?: number } = {}): number | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v)) throw this.bad(`${key} must be a number, got ${kind(v)}`);
    if ((options.min !== undefined && v < options.min) || (options.max !== undefined && v > options.max)) {
      throw this.bad(`${key} must be between ${options.min ?? "-∞"} and ${options.max ?? "∞"}, got ${v}`);
    }
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") throw this.bad(`${key} must be true or false, got ${kind(v)}`);
    return v;
  }

  object(key: string): Record<string, unknown> | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw this.bad(`${key} must be an object, got ${kind(v)}`);
    return v;
  }

  stringList(key: string, options: { max?: number } = {}): string[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw this.bad(`${key} must be a list of strings`);
    if (options.max !== undefined && v.length > options.max)
      throw this.bad(`${key} has ${v.length} items; at most ${options.max} are allowed`);
    return v as string[];
  }
}

const MAX_LOGGED_DEPTH = 16;

/**
 * A copy of params for the log: strings over 2 KiB are cut, so an 8 MiB inline upload stays small,
 * and what is nested deeper than 16 is named, not kept, so a log entry is never too deep to export.
 */
export function compact(value: unknown, depth = 0): unknown {
  if (typeof value === "string")
    return value.length > 2048 ? `${value.slice(0, 2048)}… (${value.length} characters)` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_LOGGED_DEPTH)
    return `… (${Array.isArray(value) ? "an array" : "an object"} nested deeper than ${MAX_LOGGED_DEPTH}, not logged)`;
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => compact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, 200)
      .map(([k, v]) => [k, compact(v, depth + 1)]),
  );
}
