/** The README's table of checks, made from the suite itself (test/cli/readme-tables.test.ts keeps the README equal to it). */
import { markdownTable, withBlock } from "../common/markdown.js";
import { suiteChecks } from "./run.js";

/** Every check `executa test` can run, in report order: its id and what it asserts. */
export function checkTable(): string {
  const checks = suiteChecks({ expectManifestText: "" });
  return markdownTable(
    ["check", "what it asserts"],
    checks.map((c) => [`\`${c.id}\``, c.description]),
  );
}

export const withCheckTable = (readme: string): string => withBlock(readme, "checks", checkTable());
