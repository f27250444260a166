/**
 * Partial deep matching of JSON values, used by the mock host's sampling rules and by fixture
 * replay: every key of the pattern must be present and match; `"$any"` matches any value
 * (including a missing one); arrays match element by element and must have the same length.
 */
export const ANY = "$any";

export function matches(pattern: unknown, value: unknown): boolean {
  if (pattern === ANY) return true;
  if (pattern === null || typeof pattern !== "object") return Object.is(pattern, value) || pattern === value;
  if (Array.isArray(pattern)) {
    return Array.isArray(value) && value.length === pattern.length && pattern.every((p, i) => matches(p, value[i]));
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Object.entries(pattern as Record<string, unknown>).every(([k, p]) =>
    p === ANY ? true : Object.hasOwn(v, k) && matches(p, v[k]),
  );
}
