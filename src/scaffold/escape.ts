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

/** A TOML basic string. */
export function tomlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\u${hex4(code)}`;
    else out += ch;
  }
  return out + '"';
}

/** A Python string literal (double-quoted, non-ASCII kept as is: source files are UTF-8). */
export function pythonString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code === 0x2028 || code === 0x2029 || code === 0x85) out += `\\u${hex4(code)}`;
    else out += ch;
  }
  return out + '"';
}

/** A Go interpreted string literal. */
export function goString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code === 0xfeff) out += "\\ufeff"; // a BOM inside Go source is a compile error
    else out += ch;
  }
  return out + '"';
}

/** A YAML double-quoted scalar. */
export function yamlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f || code === 0x85 || code === 0x2028 || code === 0x2029 || code === 0xfeff)
      out += `\\u${hex4(code)}`;
    else out += ch;
  }
  return out + '"';
}

/** Markdown inline text: every ASCII punctuation mark backslash-escaped (CommonMark), lines folded. */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}
