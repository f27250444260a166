/** A TypeScript program over the files that declare tools, with the project's compiler options. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import ts = require("typescript");

function projectOptions(projectDir: string): ts.CompilerOptions {
  const configPath = join(projectDir, "tsconfig.json");
  const defaults: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
  };
  if (!existsSync(configPath)) return defaults;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) return defaults;
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, projectDir, undefined, configPath);
  return parsed.options;
}

/**
 * A plugin runs in Node: without a `lib` of the project's, the target's own library without the
 * DOM's, the largest file the compiler would read.
 */
function libWithoutDom(defaultLib: string): string {
  if (defaultLib === "lib.d.ts") return "lib.es5.d.ts";
  if (defaultLib === "lib.es6.d.ts") return "lib.es2015.d.ts";
  return defaultLib.replace(".full.d.ts", ".d.ts");
}

/** The file the compiler is reading, set while it parses one (a parse that overflows the stack is located by it). */
export interface ParseTracker {
  parsing?: string;
}

export function createProgram(projectDir: string, rootFiles: string[], tracker: ParseTracker = {}): ts.Program {
  const options: ts.CompilerOptions = {
    ...projectOptions(projectDir),
    noEmit: true,
    skipLibCheck: true,
    // A missing node_modules (before `npm install`) must not stop the reading.
    types: [],
    incremental: false,
    composite: false,
  };
  delete options.tsBuildInfoFile;
  options.lib ??= [libWithoutDom(ts.getDefaultLibFileName(options))];
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, ...rest) => {
    tracker.parsing = fileName;
    const sf = getSourceFile(fileName, ...rest);
    tracker.parsing = undefined;
    return sf;
  };
  return ts.createProgram({ rootNames: rootFiles, options, host });
}
