/** JSDoc and plain comments around a declaration. */
import ts = require("typescript");

/** Paragraphs kept (blank line between them); lines inside a paragraph joined with a space. */
export function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .join(" "),
    )
    .filter(Boolean)
    .join("\n\n");
}

export function commentText(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string {
  return normaliseText(ts.getTextOfJSDocComment(comment) ?? "");
}

/** The JSDoc block closest to the declaration (the last one before it). */
export function closestJsDoc(node: ts.Node): ts.JSDoc | undefined {
  const host = ts.isVariableDeclaration(node) && ts.isVariableDeclarationList(node.parent) ? node.parent.parent : node;
  const docs = (host as { jsDoc?: ts.JSDoc[] }).jsDoc;
  return docs?.[docs.length - 1];
}

export function tagsOf(doc: ts.JSDoc | undefined): readonly ts.JSDocTag[] {
  return doc?.tags ?? [];
}

export function findTag(doc: ts.JSDoc | undefined, name: string): ts.JSDocTag | undefined {
  return tagsOf(doc).find((t) => t.tagName.text === name);
}

export function tagText(tag: ts.JSDocTag | undefined): string | undefined {
  if (!tag) return undefined;
  return (ts.getTextOfJSDocComment(tag.comment) ?? "").trim();
}

/** A `//` comment on the lines right above, or a comment after the declaration on its own line. */
export function plainComment(node: ts.Node): string | undefined {
  const sf = node.getSourceFile();
  const text = sf.text;
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const endLine = lineOf(node.end);
  const clean = (raw: string) =>
    normaliseText(
      raw.startsWith("//")
        ? raw.slice(2)
        : raw
            .replace(/^\/\*+/, "")
            .replace(/\*\/$/, "")
            .replace(/^[ \t]*\* ?/gm, ""),
    );
  let trailingPos = node.end;
  // A trailing `;` or `,` belongs to the member.
  while (trailingPos < text.length && (text[trailingPos] === ";" || text[trailingPos] === ",")) trailingPos++;
  const trailing = ts.getTrailingCommentRanges(text, trailingPos)?.find((r) => lineOf(r.pos) === endLine);
  if (trailing) return clean(text.slice(trailing.pos, trailing.end));
  // Comments between the previous token and the declaration; those on the previous token's line are its own.
  let trivia = text.slice(node.pos, node.getStart(sf));
  const newline = trivia.indexOf("\n");
  if (newline !== -1) trivia = trivia.slice(newline + 1);
  const leading = trivia.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
  if (leading.length > 0) return leading.map(clean).filter(Boolean).join(" ") || undefined;
  return undefined;
}
