/**
 * The TypeScript compiler backend: the only code that touches the TypeScript API (typescript 6.0,
 * the last line with a JS compiler API). It reads the project into the compiler-neutral shapes of
 * ../source-model.ts.
 */
import type { Diagnostic } from "../../../protocol/index.js";
import type { SourceReading, SourceTool } from "../source-model.js";
import { createProgram } from "./program.js";
import { ToolReader } from "./tools.js";

export function readSources(projectDir: string, files: string[]): SourceReading {
  const program = createProgram(projectDir, files);
  const checker = program.getTypeChecker();
  const diagnostics: Diagnostic[] = [];
  const reader = new ToolReader(checker, projectDir, diagnostics);
  const tools: SourceTool[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (sf) tools.push(...reader.readFile(sf));
  }
  return { tools, diagnostics };
}
