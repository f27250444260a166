/** How deep brackets nest in source text, in one linear pass (strings and comments skipped; good enough to point at the spot). */

export interface Nesting {
  depth: number;
  /** Where that depth is first reached. */
  offset: number;
}

const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);

/** The deepest bracket nesting of C-like source (TypeScript, Go) and where it is first reached. */
export function deepestNesting(text: string): Nesting {
  let depth = 0;
  let deepest: Nesting = { depth: 0, offset: 0 };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (OPEN.has(c)) {
      depth++;
      if (depth > deepest.depth) deepest = { depth, offset: i };
    } else if (CLOSE.has(c)) {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}
