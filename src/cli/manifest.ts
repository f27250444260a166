import { resolve } from "node:path";
import type { CommandModule } from "yargs";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color } from "../common/term.js";
import {
  applyStrict,
  checkManifest,
  compareOutputs,
  describePlugin,
  generateManifest,
  MANIFEST_PATH,
  syncVersion,
  writeOutputs,
  type CheckResult,
  type Output,
} from "../manifest/index.js";
import { canonicalManifestJson, formatDiagnostic, hasErrors, validateManifest, type Diagnostic } from "../protocol/index.js";
import { runCommand } from "./run.js";

interface ManifestArgs {
  dir: string;
  check: boolean;
  json: boolean;
  strict: boolean;
  "from-plugin": boolean;
  "sync-version": boolean;
  "--"?: string[];
  _: (string | number)[];
}

function printDiagnostics(diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    const line = formatDiagnostic(d);
    process.stderr.write((d.severity === "error" ? color.red(line) : color.yellow(line)) + "\n");
  }
}

/** The launch command after `--`. */
function pluginCommand(argv: ManifestArgs): string[] {
  const fromArgv = argv["--"] ?? [];
  if (fromArgv.length) return fromArgv.map(String);
  const i = process.argv.indexOf("--");
  return i === -1 ? [] : process.argv.slice(i + 1);
}

async function fromPlugin(dir: string, argv: ManifestArgs): Promise<{ outputs: Output[]; diagnostics: Diagnostic[] }> {
  const [command, ...args] = pluginCommand(argv);
  if (!command) {
    throw new ExecutaError("--from-plugin needs the plugin's launch command after --", { hint: "e.g. `executa manifest --from-plugin -- ./dist/my-plugin`" });
  }
  const { manifest } = await describePlugin(command, args, { cwd: dir });
  const diagnostics = applyStrict(validateManifest(manifest, { source: "describe" }), argv.strict);
  return { outputs: [{ path: MANIFEST_PATH, content: canonicalManifestJson(manifest) }], diagnostics };
}

function printCheck(result: CheckResult, fix: string): void {
  const out = process.stdout;
  if (result.status === "in-sync") {
    out.write(`${color.green("✔", out)} manifest.json is in sync with the code\n`);
    return;
  }
  const what = { missing: "is missing", drift: "is out of date", "non-canonical": "is not in canonical form (formatting only)", error: "" }[result.status];
  out.write(`${color.red("✖", out)} ${result.files.join(" and ")} ${what}\n`);
  if (result.changes.length) {
    out.write("\nChanges (committed -> code):\n");
    for (const c of result.changes) out.write(`  - ${c.message}\n`);
  }
  if (result.diff) out.write(`\n${result.diff}`);
  out.write(`\nTo fix it, run: ${fix}\n`);
}

export const manifestCommand: CommandModule<object, ManifestArgs> = {
  command: "manifest [dir]",
  describe: "Generate manifest.json (and the bindings file) from the tools' source, or check that it is up to date",
  builder: (y) =>
    y
      .parserConfiguration({ "populate--": true })
      .positional("dir", { type: "string", default: ".", describe: "The plugin project folder" })
      .option("check", {
        type: "boolean",
        default: false,
        describe: "Write nothing; exit 0 when the committed files are in sync, 1 on drift or a missing or non-canonical file, 2 when the manifest cannot be generated",
      })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON result object on stdout: {status, changes, diagnostics, files}" })
      .option("strict", { type: "boolean", default: false, describe: "Treat warnings as errors" })
      .option("from-plugin", {
        type: "boolean",
        default: false,
        describe: "Take the manifest from a running plugin's describe answer instead of the source: executa manifest --from-plugin -- <command> [args]",
      })
      .option("sync-version", {
        type: "boolean",
        default: false,
        describe: "First copy the package.json / pyproject.toml version into executa.json (for `npm version`)",
      })
      .example("$0 manifest", "Regenerate manifest.json and the bindings file")
      .example("$0 manifest --check", "Fail CI when manifest.json is out of date")
      .example("$0 manifest --from-plugin -- ./dist/my-plugin-linux-x86_64", "Read the manifest from a built binary") as never,
  handler: (argv) =>
    runCommand(async () => {
      const dir = resolve(argv.dir);
      const fix = argv["from-plugin"] ? `executa manifest --from-plugin -- ${pluginCommand(argv).join(" ")}` : `executa manifest${argv.dir === "." ? "" : ` ${argv.dir}`}`;
      if (argv["sync-version"] && !argv.check) {
        const written = syncVersion(dir);
        if (written && !argv.json) process.stderr.write(`executa.json version -> ${written}\n`);
      }
      let outputs: Output[];
      let diagnostics: Diagnostic[];
      let toolCount = 0;
      if (argv["from-plugin"]) {
        ({ outputs, diagnostics } = await fromPlugin(dir, argv));
      } else if (argv.check) {
        const result = await checkManifest(dir, { strict: argv.strict });
        return report(result, argv, fix);
      } else {
        const generated = await generateManifest(dir, { strict: argv.strict });
        ({ outputs, diagnostics } = generated);
        toolCount = generated.manifest.tools.length;
      }
      if (argv.check) return report(await compareOutputs(dir, outputs, diagnostics), argv, fix);

      if (hasErrors(diagnostics)) {
        if (argv.json) process.stdout.write(JSON.stringify({ status: "error", written: [], diagnostics }) + "\n");
        else printDiagnostics(diagnostics);
        if (!argv.json) process.stderr.write(`${color.red("executa: error:")} manifest.json was not written (${diagnostics.filter((d) => d.severity === "error").length} errors)\n`);
        return ExitCode.CannotRun;
      }
      const written = await writeOutputs(dir, outputs);
      if (argv.json) {
        process.stdout.write(JSON.stringify({ status: written.length ? "written" : "unchanged", written, diagnostics }) + "\n");
      } else {
        printDiagnostics(diagnostics);
        const count = toolCount || (JSON.parse(outputs[0]!.content) as { tools?: unknown[] }).tools?.length || 0;
        process.stdout.write(written.length ? `wrote ${written.join(", ")} (${count} tools)\n` : `manifest.json is up to date (${count} tools)\n`);
      }
      return ExitCode.Ok;
    }),
};

function report(result: CheckResult, argv: ManifestArgs, fix: string): number {
  if (argv.json) {
    process.stdout.write(JSON.stringify({ status: result.status, changes: result.changes, diagnostics: result.diagnostics, files: result.files }) + "\n");
  } else {
    printDiagnostics(result.diagnostics);
    if (result.status === "error") process.stderr.write(`${color.red("executa: error:")} the manifest cannot be generated; fix the errors above\n`);
    else printCheck(result, fix);
  }
  return result.status === "in-sync" ? ExitCode.Ok : result.status === "error" ? ExitCode.CannotRun : ExitCode.Failed;
}
