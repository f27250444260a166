/**
 * The TypeScript compiler backend: the only code that touches the TypeScript API (typescript 6.0,
 * the last line with a JS compiler API). It reads the project into the compiler-neutral shapes of
 * ../source-model.ts.
 */
import type { Diagnostic } from "../../../protocol/index.js";
import type { SourceReading, SourceTool } from "../source-model.js";
import ts = require("typescript");
import { relative, sep } from "node:path";
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
    if (!sf) continue;
    const syntax = program.getSyntacticDiagnostics(sf);
    // A file that does not parse is reported where it breaks; its tools are not guessed at.
    if (syntax.length > 0) diagnostics.push(...syntax.slice(0, 10).map((d) => syntaxError(d, sf, projectDir)));
    else tools.push(...reader.readFile(sf));
  }
  return { tools, diagnostics };
}

function syntaxError(d: ts.DiagnosticWithLocation, sf: ts.SourceFile, projectDir: string): Diagnostic {
  const { line, character } = sf.getLineAndCharacterOfPosition(d.start);
  const file = relative(projectDir, sf.fileName).split(sep).join("/");
  return { severity: "error", message: `syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`, file, line: line + 1, column: character + 1 };
}
