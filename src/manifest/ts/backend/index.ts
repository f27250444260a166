/**
 * The TypeScript compiler backend: the only code that touches the TypeScript API (typescript 6.0,
 * the last line with a JS compiler API). It reads the project into the compiler-neutral shapes of
 * ../source-model.ts.
 */
import type { Diagnostic } from "../../../protocol/index.js";
import type { SourceReading, SourceTool } from "../source-model.js";
import ts = require("typescript");
import { relative, sep } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { deepestNesting } from "../../nesting.js";
import { createProgram, type ParseTracker } from "./program.js";
import { ToolReader } from "./tools.js";

export function readSources(projectDir: string, files: string[]): SourceReading {
  const tracker: ParseTracker = {};
  let reading: string | undefined;
  try {
    const program = createProgram(projectDir, files, tracker);
    const checker = program.getTypeChecker();
    const diagnostics: Diagnostic[] = [];
    const reader = new ToolReader(checker, projectDir, diagnostics);
    const tools: SourceTool[] = [];
    for (const file of files) {
      reading = file;
      const sf = program.getSourceFile(file);
      if (!sf) continue;
      const syntax = program.getSyntacticDiagnostics(sf);
      // A file that does not parse is reported where it breaks; its tools are not guessed at.
      if (syntax.length > 0) diagnostics.push(...syntax.slice(0, 10).map((d) => syntaxError(d, sf, projectDir)));
      else tools.push(...reader.readFile(sf));
    }
    return { tools, diagnostics };
  } catch (error) {
    // The compiler recurses once per nesting level: code nested deeply enough overflows the stack.
    if (!(error instanceof RangeError)) throw error;
    const file = tracker.parsing ?? reading ?? files[0]!;
    return { tools: [], diagnostics: [tooDeep(projectDir, file)] };
  }
}

/** Where a file nests deepest, as the error for code too deep for the compiler. */
function tooDeep(projectDir: string, file: string): Diagnostic {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const deepest = deepestNesting(text);
  const before = text.slice(0, deepest.offset);
  return {
    severity: "error",
    message: `the code nests ${deepest.depth} levels deep here, deeper than the TypeScript compiler can read`,
    hint: "split the nested literal or expression into named parts (or load such data from a JSON file at run time)",
    file: relative(projectDir, file).split(sep).join("/"),
    line: before.split("\n").length,
    column: deepest.offset - (before.lastIndexOf("\n") + 1) + 1,
  };
}

function syntaxError(d: ts.DiagnosticWithLocation, sf: ts.SourceFile, projectDir: string): Diagnostic {
  const { line, character } = sf.getLineAndCharacterOfPosition(d.start);
  const file = relative(projectDir, sf.fileName).split(sep).join("/");
  return {
    severity: "error",
    message: `syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
    file,
    line: line + 1,
    column: character + 1,
  };
}
