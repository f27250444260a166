/** A markdown table of two columns; `|` in a cell is escaped. */
export function markdownTable(header: readonly [string, string], rows: readonly (readonly [string, string])[]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  return [`| ${header[0]} | ${header[1]} |`, "|---|---|", ...rows.map(([a, b]) => `| ${cell(a)} | ${cell(b)} |`)].join(
    "\n",
  );
}

/** `text` with the block between `<!-- name -->` and `<!-- /name -->` replaced by `body`; throws when there is none. */
export function withBlock(text: string, name: string, body: string): string {
  const block = new RegExp(`<!-- ${name} -->\\n[\\s\\S]*?<!-- /${name} -->`);
  if (!block.test(text)) throw new Error(`no <!-- ${name} --> ... <!-- /${name} --> block`);
  return text.replace(block, () => `<!-- ${name} -->\n${body}\n<!-- /${name} -->`);
}
