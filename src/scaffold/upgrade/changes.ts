/** docs/runtime-changes.md: what changed in the runtime, one `## Version N` section per version. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../common/package-info.js";

export const CHANGES_DOC = join(PACKAGE_ROOT, "docs", "runtime-changes.md");

export interface RuntimeChange {
  version: number;
  /** The section's Markdown, without its heading. */
  text: string;
}

export function parseChanges(markdown: string): RuntimeChange[] {
  const sections: RuntimeChange[] = [];
  for (const part of markdown.split(/^## /m).slice(1)) {
    const match = /^Version (\d+)\s*\n/.exec(part);
    if (match) sections.push({ version: Number(match[1]), text: part.slice(match[0].length).trim() });
  }
  return sections.sort((a, b) => a.version - b.version);
}

/** The sections after version `from`, up to and including `to`, oldest first. */
export async function changesBetween(from: number, to: number): Promise<RuntimeChange[]> {
  return parseChanges(await readFile(CHANGES_DOC, "utf8")).filter((c) => c.version > from && c.version <= to);
}
