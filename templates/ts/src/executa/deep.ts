/**
 * Frames that nest deeper than MAX_DEPTH levels: they are valid JSON or not, and may carry a
 * top-level id, but are never parsed into values (a parser's time and stack grow with depth).
 */

/** The deepest frame the runtime takes; the frame object itself is level 1. */
export const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** True when the bytes nest deeper than MAX_DEPTH (brackets inside strings do not count). */
export function nestsTooDeep(bytes: Uint8Array): boolean {
  let brackets = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === OPEN_OBJECT || bytes[i] === OPEN_ARRAY) brackets++;
  if (brackets <= MAX_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > MAX_DEPTH) return true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

const enum Want {
  Value,
  ValueOrClose,
  KeyOrClose,
  Key,
  Colon,
  CommaOrClose,
}

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
const isHex = (b: number | undefined) => b !== undefined && (isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));

/** The end of the string that starts at `i` (just past its closing quote), or -1. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (i++; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) return i + 1;
    if (b < 0x20) return -1;
    if (b === BACKSLASH) {
      const e = bytes[++i];
      if (e === 0x75) {
        if (!(isHex(bytes[i + 1]) && isHex(bytes[i + 2]) && isHex(bytes[i + 3]) && isHex(bytes[i + 4]))) return -1;
        i += 4;
      } else if (e === undefined || !'"\\/bfnrt'.includes(String.fromCharCode(e))) {
        return -1;
      }
    }
  }
  return -1;
}

/** The end of the number or literal that starts at `i`, or -1. */
function scalarEnd(bytes: Uint8Array, i: number): number {
  for (const word of ["true", "false", "null"]) {
    if (bytes[i] === word.charCodeAt(0)) {
      for (let k = 1; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return -1;
      return i + word.length;
    }
  }
  if (bytes[i] === 0x2d) i++;
  if (bytes[i] === 0x30) i++;
  else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
  else return -1;
  if (bytes[i] === 0x2e) {
    if (!isDigit(bytes[++i])) return -1;
    while (isDigit(bytes[i])) i++;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
    if (!isDigit(bytes[i])) return -1;
    while (isDigit(bytes[i])) i++;
  }
  return i;
}

/**
 * Checks that the bytes are one JSON value without building it. When they are, `id` is the
 * text of the top-level object's "id" member if it is a scalar (undefined when absent), and
 * `response` says the object is a response: a "result" or "error" member and no "method".
 */
export function scanDeep(bytes: Uint8Array): { valid: false } | { valid: true; id?: string; response: boolean } {
  const stack = new Uint8Array(bytes.length);
  let depth = 0;
  let want = Want.Value;
  let keyIsId = false;
  let id: string | undefined;
  let hasMethod = false;
  let hasAnswer = false;
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("utf8");
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (isSpace(b)) {
      i++;
      continue;
    }
    if (want === Want.Colon) {
      if (b !== 0x3a) return { valid: false };
      want = Want.Value;
      i++;
    } else if (want === Want.CommaOrClose) {
      if (depth === 0) return { valid: false };
      if (b === 0x2c) {
        want = stack[depth - 1] === OPEN_OBJECT ? Want.Key : Want.Value;
      } else if ((b === CLOSE_OBJECT && stack[depth - 1] === OPEN_OBJECT) || (b === CLOSE_ARRAY && stack[depth - 1] === OPEN_ARRAY)) {
        depth--;
      } else {
        return { valid: false };
      }
      i++;
    } else if (want === Want.Key || want === Want.KeyOrClose) {
      if (b === CLOSE_OBJECT && want === Want.KeyOrClose) {
        depth--;
        want = Want.CommaOrClose;
        i++;
      } else {
        if (b !== QUOTE) return { valid: false };
        const end = stringEnd(bytes, i);
        if (end < 0) return { valid: false };
        const key: unknown = depth === 1 ? JSON.parse(text(i, end)) : undefined;
        keyIsId = key === "id";
        hasMethod ||= key === "method";
        hasAnswer ||= key === "result" || key === "error";
        want = Want.Colon;
        i = end;
      }
    } else if (b === CLOSE_ARRAY && want === Want.ValueOrClose) {
      depth--;
      want = Want.CommaOrClose;
      i++;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (keyIsId) id = "{}"; // a container is never a valid id
      keyIsId = false;
      stack[depth++] = b;
      want = b === OPEN_OBJECT ? Want.KeyOrClose : Want.ValueOrClose;
      i++;
    } else {
      const end = b === QUOTE ? stringEnd(bytes, i) : scalarEnd(bytes, i);
      if (end < 0) return { valid: false };
      if (keyIsId) id = text(i, end);
      keyIsId = false;
      want = Want.CommaOrClose;
      i = end;
    }
    if (depth === 0 && want === Want.CommaOrClose) {
      while (i < bytes.length && isSpace(bytes[i])) i++;
      return i === bytes.length ? { valid: true, ...(id !== undefined && { id }), response: hasAnswer && !hasMethod } : { valid: false };
    }
  }
  return { valid: false };
}
