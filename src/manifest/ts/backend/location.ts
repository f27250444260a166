import { relative, sep } from "node:path";
import ts = require("typescript");
import type { SourceLocation } from "../../model.js";

export function locationOf(node: ts.Node, projectDir: string): SourceLocation {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return { file: relative(projectDir, sf.fileName).split(sep).join("/"), line: line + 1, column: character + 1 };
}
