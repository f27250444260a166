/**
 * The project's own TypeScript program, as `tsc -p tsconfig.json` builds it. `executa build`
 * refuses its type errors; `executa dev` and `executa test` run what it emits, the same files
 * `npm start` and `npm test` run, with inline source maps so stack traces point at src/.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import type ts from "typescript";

type TypeScript = typeof ts;
import { ExecutaError, ExitCode } from "../common/errors.js";
import { formatDiagnostic, type Diagnostic } from "../protocol/index.js";

export const TSCONFIG = "tsconfig.json";

// Loaded on first use: the compiler is large, and most commands never need it. Required, not
// imported: importing its 9 MB CommonJS file would make Node read all of it twice more first (for its
// module format, then for its named exports).
let compiler: TypeScript | undefined;
async function typescript(): Promise<TypeScript> {
  compiler ??= createRequire(import.meta.url)("typescript") as TypeScript;
  return compiler;
}

/** How many type errors a message lists before it says how many more there are. */
const LISTED = 10;

/** Type errors, listed as `file:line:col: error: TSnnnn: message` with the compiler's own text. */
export class TypeErrors extends ExecutaError {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[], what: string) {
    const listed = diagnostics.slice(0, LISTED).map(formatDiagnostic);
    const more = diagnostics.length > LISTED ? `\n  ... and ${diagnostics.length - LISTED} more` : "";
    super(
      `${diagnostics.length === 1 ? "a type error" : `${diagnostics.length} type errors`} (tsc -p ${TSCONFIG}), so ${what}:\n  ${listed.join("\n  ")}${more}`,
      {
        hint: `fix the type errors; \`npx tsc -p ${TSCONFIG} --noEmit\` shows the same`,
        exitCode: ExitCode.CannotRun,
      },
    );
    this.diagnostics = diagnostics;
  }
}

/**
 * `checked`; `no-tsconfig`: nothing to check against; `types-missing`: the type packages
 * tsconfig.json names are not installed (before `npm install`), so every use of them would be an
 * error: the check is skipped, and `note` says why.
 */
export type TypeCheck = { status: "checked" | "no-tsconfig" } | { status: "types-missing"; note: string };

/** TS2688 "Cannot find type definition file": the project's dependencies are not installed. */
function typesMissing(errors: Diagnostic[]): TypeCheck | undefined {
  const missing = errors.filter((d) => d.message.startsWith("TS2688:"));
  if (missing.length === 0) return undefined;
  return {
    status: "types-missing",
    note: `type check skipped: ${missing.map((d) => d.message).join("; ")} (install the project's dependencies: npm install)`,
  };
}

function toDiagnostic(ts: TypeScript, d: ts.Diagnostic, projectDir: string): Diagnostic {
  const message = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  const severity = d.category === ts.DiagnosticCategory.Error ? "error" : "warning";
  if (!d.file || d.start === undefined) return { severity, message, file: TSCONFIG };
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return {
    severity,
    message,
    file: relative(projectDir, d.file.fileName).split(sep).join("/"),
    line: line + 1,
    column: character + 1,
  };
}

const errorsOf = (ts: TypeScript, diagnostics: readonly ts.Diagnostic[], projectDir: string) =>
  diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).map((d) => toDiagnostic(ts, d, projectDir));

/**
 * The project's tsconfig.json as tsc reads it (extends, include, exclude), with `options` over its own
 * as tsc's command line puts them; undefined without one.
 */
async function readTsConfig(
  ts: TypeScript,
  projectDir: string,
  options?: ts.CompilerOptions,
): Promise<ts.ParsedCommandLine | undefined> {
  const path = join(projectDir, TSCONFIG);
  if (!existsSync(path)) return undefined;
  const problems: ts.Diagnostic[] = [];
  const host: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(d) };
  const parsed = ts.getParsedCommandLineOfConfigFile(path, options, host);
  const errors = errorsOf(ts, [...problems, ...(parsed?.errors ?? [])], projectDir);
  if (!parsed || errors.length > 0) throw new TypeErrors(errors, "nothing was compiled");
  return parsed;
}

function programOf(ts: TypeScript, config: ts.ParsedCommandLine, options: ts.CompilerOptions): ts.Program {
  return ts.createProgram({
    rootNames: config.fileNames,
    options: { ...config.options, ...options },
    projectReferences: config.projectReferences ?? [],
  });
}

/**
 * Whether the project is compiled as `tsc -b` does: tsc keeps a .tsbuildinfo for it (`incremental`
 * or `composite`), and it references no other project (`tsc -b` would build those too, wherever
 * they are).
 */
const isIncremental = (config: ts.ParsedCommandLine) =>
  Boolean(config.options.incremental || config.options.composite) && !config.projectReferences?.length;

/** `tsc -b`'s builder for the project at `configPath`, with `config` as its parsed tsconfig.json; diagnostics go to `report`. */
function solutionBuilder(
  ts: TypeScript,
  configPath: string,
  config: ts.ParsedCommandLine,
  report: ts.DiagnosticReporter = () => undefined,
): ts.SolutionBuilder<ts.EmitAndSemanticDiagnosticsBuilderProgram> {
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, () => undefined);
  host.getParsedCommandLine = (file) => (resolve(file) === configPath ? config : undefined);
  return ts.createSolutionBuilder(host, [configPath], {});
}

/**
 * True when tsc's build mode would do nothing: the project compiles incrementally, and its
 * .tsbuildinfo says the last build had no errors and no input has changed since. Refreshing output
 * timestamps, all tsc -b would do for an input touched but unchanged, is done.
 */
function upToDate(ts: TypeScript, configPath: string, config: ts.ParsedCommandLine): boolean {
  if (!isIncremental(config)) return false;
  const builder = solutionBuilder(ts, configPath, config);
  for (;;) {
    const next = builder.getNextInvalidatedProject();
    if (!next) return true;
    if (next.kind !== ts.InvalidatedProjectKind.UpdateOutputFileStamps) return false;
    next.done();
  }
}

/**
 * Throws TypeErrors unless the project type-checks as `tsc -p tsconfig.json --noEmit` does (`what`
 * says what did not happen). An incremental project that `tsc -b` would leave alone is not checked again.
 */
export async function typeCheck(projectDir: string, what: string): Promise<TypeCheck> {
  const ts = await typescript();
  const config = await readTsConfig(ts, projectDir);
  if (!config) return { status: "no-tsconfig" };
  if (upToDate(ts, resolve(projectDir, TSCONFIG), config)) return { status: "checked" };
  const errors = errorsOf(ts, ts.getPreEmitDiagnostics(programOf(ts, config, { noEmit: true })), projectDir);
  const skipped = typesMissing(errors);
  if (skipped) return skipped;
  if (errors.length > 0) throw new TypeErrors(errors, what);
  return { status: "checked" };
}

export interface Compiled {
  /** The emitted JavaScript of the entry. */
  file: string;
  check: TypeCheck;
}

/**
 * Type-checks and emits the program once, as `tsc -p` does, except that a type error stops it
 * before anything is written (missing type packages do not); returns the type errors.
 */
function compileOnce(ts: TypeScript, config: ts.ParsedCommandLine, projectDir: string): Diagnostic[] {
  const program = programOf(ts, config, {});
  const errors = errorsOf(ts, ts.getPreEmitDiagnostics(program), projectDir);
  if (errors.length > 0 && !typesMissing(errors)) return errors;
  const emitErrors = errorsOf(ts, program.emit().diagnostics, projectDir);
  if (emitErrors.length > 0) throw new TypeErrors(emitErrors, "the plugin was not started");
  return errors;
}

/** Type-checks and emits as `tsc -b` does, so an unchanged project is not compiled again; returns the type errors. */
function compileIncrementally(
  ts: TypeScript,
  configPath: string,
  config: ts.ParsedCommandLine,
  projectDir: string,
): Diagnostic[] {
  const diagnostics: ts.Diagnostic[] = [];
  solutionBuilder(ts, configPath, config, (d) => diagnostics.push(d)).build();
  return errorsOf(ts, diagnostics, projectDir);
}

/**
 * Type-checks and emits the project as `tsc -p tsconfig.json` does (into its outDir, with inline
 * source maps unless it asks for map files; an incremental project as `tsc -b` does, so an
 * unchanged one is not compiled again); undefined without a tsconfig.json.
 */
export async function compileProject(projectDir: string, entry: string): Promise<Compiled | undefined> {
  const ts = await typescript();
  const config = await readTsConfig(ts, projectDir);
  if (!config) return undefined;
  const entryPath = resolve(projectDir, entry);
  if (!config.fileNames.some((f) => resolve(f) === entryPath)) {
    throw new ExecutaError(`${relative(projectDir, entryPath)} is not part of the program ${TSCONFIG} compiles`, {
      hint: `add it to "include" in ${TSCONFIG}`,
    });
  }
  const { sourceMap, inlineSourceMap, noEmit, noEmitOnError } = config.options;
  const overrides: ts.CompilerOptions = {
    ...(!sourceMap && !inlineSourceMap && { inlineSourceMap: true }),
    ...(noEmit && { noEmit: false }),
    ...(noEmitOnError && { noEmitOnError: false }),
  };
  const compiled = Object.keys(overrides).length > 0 ? (await readTsConfig(ts, projectDir, overrides))! : config;
  const errors = isIncremental(compiled)
    ? compileIncrementally(ts, resolve(projectDir, TSCONFIG), compiled, projectDir)
    : compileOnce(ts, compiled, projectDir);
  const check = typesMissing(errors) ?? { status: "checked" };
  if (check.status === "checked" && errors.length > 0) throw new TypeErrors(errors, "the plugin was not started");
  const output = ts
    .getOutputFileNames(compiled, entryPath, !ts.sys.useCaseSensitiveFileNames)
    .find((f) => /\.[cm]?js$/.test(f));
  if (!output || !existsSync(output)) {
    throw new ExecutaError(`tsc emitted no JavaScript for ${relative(projectDir, entryPath)}`, {
      hint: `check "noEmit" and "emitDeclarationOnly" in ${TSCONFIG}`,
    });
  }
  return { file: output, check };
}
