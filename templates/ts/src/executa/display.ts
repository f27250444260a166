/**
 * `withDisplay`: the chat UI renders an invoke's top-level `_display` verbatim (long reference
 * §9). The runtime defines no block types; it only puts the value in its place.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Throws a TypeError naming the path of the first value JSON cannot carry. */
function checkJson(value: unknown, path: string, ancestors: unknown[]): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`withDisplay: ${path} is ${value}, which JSON cannot carry`);
    return;
  }
  if (typeof value !== "object") throw new TypeError(`withDisplay: ${path} is a ${typeof value}, which JSON cannot carry`);
  if (ancestors.includes(value)) throw new TypeError(`withDisplay: ${path} refers back to itself (a cycle)`);
  if (!Array.isArray(value) && !isPlainObject(value)) {
    throw new TypeError(`withDisplay: ${path} is a ${value.constructor?.name ?? "non-plain object"}, not a plain object, array or JSON value`);
  }
  ancestors.push(value);
  if (Array.isArray(value)) value.forEach((item, i) => checkJson(item, `${path}[${i}]`, ancestors));
  else for (const [key, item] of Object.entries(value)) checkJson(item, `${path}.${key}`, ancestors);
  ancestors.pop();
}

/**
 * A copy of `data` with `display` as its top-level `_display`: what the chat shows as is.
 * `data` is a plain object; `display` an object or an array of JSON values.
 */
export function withDisplay<T extends Record<string, unknown>>(data: T, display: Record<string, unknown> | unknown[]): T & { _display: unknown } {
  if (!isPlainObject(data)) throw new TypeError(`withDisplay: data must be a plain object, got ${Array.isArray(data) ? "an array" : data === null ? "null" : typeof data}`);
  if (typeof display !== "object" || display === null) {
    throw new TypeError(`withDisplay: display must be an object or an array, got ${display === null ? "null" : typeof display}`);
  }
  checkJson(display, "display", []);
  return { ...data, _display: display };
}
