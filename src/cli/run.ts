/** How every command ends: an exit code, and one clear line for errors. */
import yargs, { type Argv } from "yargs";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { PACKAGE_VERSION } from "../common/package-info.js";
import { color } from "../common/term.js";

export function printError(message: string, hint?: string): void {
  process.stderr.write(`${color.red("executa: error:")} ${message}\n`);
  if (hint) process.stderr.write(`${color.dim("hint:")} ${hint}\n`);
}

/** Runs a command handler and sets the exit code; unexpected errors print their stack. */
export async function runCommand(handler: () => Promise<number | void>): Promise<void> {
  try {
    process.exitCode = (await handler()) ?? ExitCode.Ok;
  } catch (error) {
    if (error instanceof ExecutaError) {
      printError(error.message, error.hint);
      process.exitCode = error.exitCode;
    } else {
      printError(`unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        "this is a bug in create-executa; please report it with the command you ran");
      process.exitCode = ExitCode.CannotRun;
    }
  }
}

/** The yargs every command line starts from: strict, --help/-h, --version, usage errors as one line and exit 2. */
export function commandLine(argv: string[], scriptName: string, helpHint: string): Argv {
  return yargs(argv)
    .scriptName(scriptName)
    .strict()
    .version(PACKAGE_VERSION)
    .alias("h", "help")
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      printError(message, helpHint);
      process.exit(ExitCode.CannotRun);
    });
}
