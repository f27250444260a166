/** `key=value` words of the REPL -> invoke arguments, each value coerced by its parameter's type. */
import type { Parameter, ToolDefinition } from "../protocol/index.js";

/** Splits a command line into words; single or double quotes group, backslash escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "\\" && i + 1 < line.length && quote !== "'") {
      current += line[++i];
      started = true;
    } else if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(current);
      current = "";
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote}`);
  if (started) words.push(current);
  return words;
}

function coerceScalar(type: string, raw: string, name: string): unknown {
  switch (type) {
    case "integer": {
      const n = Number(raw);
      if (!Number.isInteger(n) || raw.trim() === "")
        throw new Error(`${name} is an integer, got ${JSON.stringify(raw)}`);
      return n;
    }
    case "number": {
      const n = Number(raw);
      if (!Number.isFinite(n) || raw.trim() === "") throw new Error(`${name} is a number, got ${JSON.stringify(raw)}`);
      return n;
    }
    case "boolean": {
      const v = raw.toLowerCase();
      if (["true", "yes", "1", "on"].includes(v)) return true;
      if (["false", "no", "0", "off"].includes(v)) return false;
      throw new Error(`${name} is a boolean (true/false), got ${JSON.stringify(raw)}`);
    }
    case "object": {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new Error(`${name} is an object: give it as JSON, e.g. ${name}='{"a": 1}'`);
      }
    }
    default:
      return raw;
  }
}

export function coerceValue(p: Parameter | undefined, raw: string, name: string): unknown {
  if (!p) {
    // Unknown to the manifest: JSON when it parses, else the text (the plugin decides).
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  if (raw === "null") return null;
  if (p.type === "array") {
    const itemType = p.items?.type ?? p.items_type ?? "string";
    if (raw.trim().startsWith("[")) {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new Error(`${name} looks like JSON but does not parse`);
      }
    }
    return raw === "" ? [] : raw.split(",").map((item, i) => coerceScalar(itemType, item.trim(), `${name}[${i}]`));
  }
  return coerceScalar(p.type, raw, name);
}

/** `["text=hello world", "top=3"]` -> `{text: "hello world", top: 3}` for the tool. */
export function argumentsFromWords(
  tool: ToolDefinition | undefined,
  words: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new Error(`expected key=value, got ${JSON.stringify(word)}`);
    const key = word.slice(0, eq);
    const param = tool?.parameters?.find((p) => p.name === key);
    out[key] = coerceValue(param, word.slice(eq + 1), key);
  }
  return out;
}
