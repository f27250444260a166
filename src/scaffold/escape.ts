/**
 * Escaping per file type. Each function turns any text into one complete literal of its
 * language (quotes included), so user text can never break the file it lands in.
 */

const hex4 = (code: number) => code.toString(16).padStart(4, "0");

/** A JSON string literal (also a valid JavaScript/TypeScript literal). */
export function jsonString(text: string): string {
  // JSON.stringify leaves U+2028/U+2029 and `</script>` alone; escape them for JS and HTML embedding.
  return JSON.stringify(text)
    .replace(/[\u2028\u2029]/g, (c) => `\\u${hex4(c.charCodeAt(0))}`)
    .replace(/</g, "\\u003c");
}

const COMMON: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const hex2 = (code: number) => code.toString(16).padStart(2, "0");
const isControl = (code: number) => code < 0x20 || code === 0x7f;

/** A double-quoted literal: the escapes every language shares, then `escapeCode` for what else this one rejects. */
function quoted(text: string, escapeCode: (code: number) => string | undefined): string {
  let out = '"';
  for (const ch of text) out += COMMON[ch] ?? escapeCode(ch.codePointAt(0)!) ?? ch;
  return out + '"';
}

/** A TOML basic string. */
export function tomlString(text: string): string {
  return quoted(text, (c) => (isControl(c) ? `\\u${hex4(c)}` : undefined));
}

/** A Python string literal (double-quoted, non-ASCII kept as is: source files are UTF-8). */
export function pythonString(text: string): string {
  return quoted(text, (c) =>
    isControl(c)
      ? `\\x${hex2(c)}`
      : (c >= 0xd800 && c <= 0xdfff) || c === 0x2028 || c === 0x2029 || c === 0x85
        ? `\\u${hex4(c)}`
        : undefined,
  );
}

/** A Go interpreted string literal (a BOM inside Go source is a compile error). */
export function goString(text: string): string {
  return quoted(text, (c) => (isControl(c) ? `\\x${hex2(c)}` : c === 0xfeff ? "\\ufeff" : undefined));
}

/** A YAML double-quoted scalar. */
export function yamlString(text: string): string {
  return quoted(text, (c) =>
    isControl(c) || c === 0x85 || c === 0x2028 || c === 0x2029 || c === 0xfeff ? `\\u${hex4(c)}` : undefined,
  );
}

/** Markdown inline text: every ASCII punctuation mark backslash-escaped (CommonMark), lines folded. */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/**
 * Text for a one-line comment or docstring in any language: line breaks, control characters and
 * BOMs become spaces, runs of spaces one, and `*\/` (the end of a JSDoc block) `* /`.
 */
export function commentLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029\u0085\ufeff]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replaceAll("*/", "* /");
}

/** Text inside a Python `"""` docstring that reads back as itself (quotes and backslashes escaped). */
export function pythonDocstringText(text: string): string {
  return pythonString(text).slice(1, -1);
}

/** A JSON value as a Python literal (None, True, False, str, numbers, lists, dicts). */
export function pythonValue(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return JSON.stringify(value);
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonValue).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pythonString(k)}: ${pythonValue(v)}`)
    .join(", ")}}`;
}

/** A struct tag value (`default:"..."`) that can sit inside a Go raw string (backquotes escaped). */
export function goTagValue(text: string): string {
  return goString(text).replaceAll("`", "\\x60");
}
