/**
 * A credentials file in the `.env` form: `NAME=value` a line, `export ` before it allowed, `#`
 * comments and blank lines skipped, a value in single quotes taken as is, in double quotes with
 * `\n`, `\t`, `\"` and `\\` read as escapes, unquoted up to a ` #` comment with the spaces around
 * it trimmed. A line that is none of these is an error naming the file and line.
 */
import { readFileSync } from "node:fs";
import { ExecutaError } from "./errors.js";

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;
const DOUBLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\" };

function value(raw: string): string | undefined {
  if (raw.startsWith("'")) {
    const end = raw.indexOf("'", 1);
    return end > 0 && /^\s*(#.*)?$/.test(raw.slice(end + 1)) ? raw.slice(1, end) : undefined;
  }
  if (raw.startsWith('"')) {
    let out = "";
    for (let i = 1; i < raw.length; i++) {
      const c = raw[i]!;
      if (c === '"') return /^\s*(#.*)?$/.test(raw.slice(i + 1)) ? out : undefined;
      if (c === "\\") {
        const next = raw[++i];
        if (next === undefined || !(next in DOUBLE_ESCAPES)) return undefined;
        out += DOUBLE_ESCAPES[next];
      } else out += c;
    }
    return undefined;
  }
  return raw.replace(/(^|\s+)#.*$/, "").trim();
}

export function parseCredentialsFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    const m = LINE.exec(trimmed);
    const v = m ? value(m[2]!) : undefined;
    if (!m || v === undefined) {
      throw new ExecutaError(`${file}:${i + 1}: not a NAME=value line (a credentials file reads like a .env file)`, {
        hint: `e.g. API_KEY=sk-test, or API_KEY="a value with spaces"`,
      });
    }
    out[m[1]!] = v;
  });
  return out;
}

export function readCredentialsFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ExecutaError(
      `cannot read the credentials file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { hint: "give a .env-style file of NAME=value lines" },
    );
  }
  return parseCredentialsFile(text, file);
}
