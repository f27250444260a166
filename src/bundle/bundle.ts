/**
 * The TypeScript plugin as one file (esbuild, platform node): CommonJS for a single executable,
 * which runs nothing else, with the ES module's `import.meta.url`, `filename` and `dirname` naming
 * the executable as Node names a single executable's main script. Warnings that mean the bundle
 * would break at run time are errors here, with the source location and a fix. Inline source maps
 * with project-relative sources point stack traces at src/.
 */
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type * as esbuild from "esbuild";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { formatDiagnostic, type Diagnostic } from "../protocol/index.js";

/** esbuild warning ids that break a bundled single executable at run time, and how to fix each. */
const FATAL_WARNINGS: Record<string, string> = {
  "empty-import-meta":
    "a single executable sets only import.meta.url, import.meta.filename and import.meta.dirname (they name the executable): use one of those, or import the module or JSON file",
  "unsupported-require-call":
    "a require() whose argument is not a string literal cannot be bundled and fails in the executable: require each module by its literal name",
  "unsupported-dynamic-import":
    "an import() whose argument is not a string literal cannot be bundled and fails in the executable: import each module by its literal name",
  "require-resolve-not-external":
    "require.resolve() finds no files inside a single executable: import the module, or ship its data as JSON",
};

const ERROR_HINTS: Array<[RegExp, string]> = [
  [
    /top-level await/i,
    "top-level await does not exist in the CommonJS bundle a single executable runs: move it into an async function",
  ],
  [
    /\.node\b/,
    "native .node addons cannot be embedded in a single executable: use a pure JavaScript or WebAssembly package instead",
  ],
];

export class BuildError extends ExecutaError {
  readonly diagnostics: Diagnostic[];

  constructor(message: string, diagnostics: Diagnostic[], hint?: string) {
    super(message, { hint, exitCode: ExitCode.CannotRun });
    this.diagnostics = diagnostics;
  }
}

function toDiagnostic(
  message: esbuild.Message,
  severity: "error" | "warning",
  projectDir: string,
  hint?: string,
): Diagnostic {
  const loc = message.location;
  return {
    severity,
    message: message.text,
    ...(hint && { hint }),
    ...(loc && {
      file: loc.file.startsWith("/") ? relative(projectDir, loc.file) : loc.file,
      line: loc.line,
      column: loc.column + 1,
    }),
  };
}

const nativeAddons: esbuild.Plugin = {
  name: "executa-native-addons",
  setup(build) {
    build.onResolve({ filter: /\.node$/ }, (args) => ({
      errors: [{ text: `native addon "${args.path}" cannot be embedded in a single executable` }],
    }));
  },
};

// In a single executable, require() loads built-in modules only; esbuild keeps a require() whose
// argument is not a string literal as it is (it warns only for ESM output), so it is found here.
const DYNAMIC_REQUIRE = /(?<![.\w$])require(?:\.resolve)?\s*\(\s*(?!["'][^"'`]*["']\s*[,)])(?=\S)(?!\))/g;
const LOADERS: Record<string, esbuild.Loader> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
};

const dynamicRequires: esbuild.Plugin = {
  name: "executa-dynamic-require",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const contents = await readFile(args.path, "utf8");
      const loader = LOADERS[args.path.slice(args.path.lastIndexOf("."))] ?? "js";
      const messages: esbuild.PartialMessage[] = [];
      const lines = contents.split("\n");
      lines.forEach((lineText, i) => {
        const trimmed = lineText.trimStart();
        if (trimmed.startsWith("//") || trimmed.startsWith("*")) return;
        for (const m of lineText.matchAll(DYNAMIC_REQUIRE)) {
          messages.push({
            id: "unsupported-require-call",
            text: "require() of a computed name: the single executable cannot load it",
            location: { file: args.path, line: i + 1, column: m.index, lineText },
          });
        }
      });
      const inDependency = /[\\/]node_modules[\\/]/.test(args.path);
      const metaLine = inDependency
        ? -1
        : lines.findIndex((line) => IMPORT_META_USE.test(line) && !/^\s*(\/\/|\*)/.test(line));
      if (metaLine >= 0) {
        const lineText = lines[metaLine]!;
        messages.push({
          id: "executa-import-meta",
          text: "import.meta names the executable in a single executable: files read beside the source are not inside it (import JSON files instead)",
          location: { file: args.path, line: metaLine + 1, column: lineText.search(IMPORT_META_USE), lineText },
        });
      }
      return {
        contents,
        loader,
        ...(inDependency
          ? { warnings: messages.map((w) => ({ ...w, id: "dependency-require-call" })) }
          : { warnings: messages }),
      };
    });
  },
};

// In a single executable the main script's __filename is the executable (Node's SEA docs); the
// ES module's import.meta says the same, read when used (a startup snapshot is made elsewhere).
const IMPORT_META = "__executaImportMeta";
const IMPORT_META_BANNER = `var ${IMPORT_META} = { get url() { return require("node:url").pathToFileURL(process.execPath).href; }, get filename() { return process.execPath; }, get dirname() { return require("node:path").dirname(process.execPath); } };`;
const IMPORT_META_DEFINES = Object.fromEntries(
  ["url", "filename", "dirname"].map((key) => [`import.meta.${key}`, `${IMPORT_META}.${key}`]),
);
const IMPORT_META_USE = /\bimport\.meta\.(?:url|filename|dirname)\b/;

export interface BundleResult {
  code: string;
  warnings: Diagnostic[];
  /** The input files that put bytes into the bundle, relative to the project (from esbuild's metafile). */
  inputs: string[];
}

export interface BundleOptions {
  projectDir: string;
  /** Entry file relative to the project (TypeScript, or plain JavaScript: CommonJS or ESM); default src/main.ts. */
  entry?: string;
  /** Source of a generated entry (the snapshot wrapper), resolved from the project's src/. */
  entrySource?: string;
  /**
   * `cjs` (default): for a single executable. `esm`: the plugin as Node runs its ES modules, for a
   * TypeScript entry without a tsconfig.json to compile it with.
   */
  format?: "cjs" | "esm";
}

// CommonJS dependencies inside an ES module bundle call require() for Node built-ins.
const ESM_BANNER =
  'import { createRequire as __executaCreateRequire } from "node:module"; const require = __executaCreateRequire(import.meta.url);';

/** Bundles the plugin; throws BuildError listing every run-time-breaking problem. */
export async function bundle(options: BundleOptions): Promise<BundleResult> {
  const projectDir = options.projectDir;
  const entry = options.entry ?? "src/main.ts";
  if (!options.entrySource && !existsSync(resolve(projectDir, entry))) {
    throw new ExecutaError(`entry ${entry} not found in ${projectDir}`, {
      hint: 'a TypeScript plugin\'s entry is src/main.ts, which calls run({ manifest, bindings }); another plugin names its file in executa.json "entry" (executa init writes it)',
    });
  }
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    const { build } = await import("esbuild");
    result = await build({
      ...(options.entrySource
        ? {
            stdin: {
              contents: options.entrySource,
              resolveDir: join(projectDir, "src"),
              sourcefile: "executa-snapshot-entry.js",
              loader: "js",
            },
          }
        : { entryPoints: [resolve(projectDir, entry)] }),
      absWorkingDir: projectDir,
      bundle: true,
      platform: "node",
      target: "node22",
      write: false,
      logLevel: "silent",
      legalComments: "none",
      charset: "utf8",
      metafile: true,
      sourcemap: "inline",
      sourcesContent: false,
      ...(options.format === "esm"
        ? { format: "esm", banner: { js: ESM_BANNER }, plugins: [nativeAddons] }
        : {
            format: "cjs",
            define: IMPORT_META_DEFINES,
            banner: { js: IMPORT_META_BANNER },
            plugins: [nativeAddons, dynamicRequires],
          }),
    });
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    const diagnostics = failure.errors.map((e) =>
      toDiagnostic(e, "error", projectDir, ERROR_HINTS.find(([re]) => re.test(e.text))?.[1]),
    );
    throw new BuildError(
      `bundling failed: ${formatDiagnostic({ ...diagnostics[0]!, hint: undefined })}`,
      diagnostics,
      diagnostics[0]?.hint,
    );
  }
  const fatal: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const warning of result.warnings) {
    const hint = warning.id ? FATAL_WARNINGS[warning.id] : undefined;
    if (hint) fatal.push(toDiagnostic(warning, "error", projectDir, hint));
    else warnings.push(toDiagnostic(warning, "warning", projectDir));
  }
  if (fatal.length > 0) {
    throw new BuildError(
      `the bundle would break at run time: ${formatDiagnostic({ ...fatal[0]!, hint: undefined })}`,
      [...fatal, ...warnings],
      fatal[0]!.hint,
    );
  }
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output?.inputs ?? {})
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([path]) => path);
  return { code: result.outputFiles[0]!.text, warnings, inputs };
}
