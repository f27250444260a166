/** The two command lines, `executa <verb>` and `create-executa [dir]`, on one yargs setup. */
import yargs from "yargs";
import { ExitCode } from "../common/errors.js";
import { PACKAGE_VERSION } from "../common/package-info.js";
import { buildCommand } from "./build.js";
import { createCommand } from "./create.js";
import { devCommand } from "./dev.js";
import { manifestCommand } from "./manifest.js";
import { printError, printJsonError } from "./run.js";
import { testCommand } from "./test.js";

export type Program = "executa" | "create-executa";

/** Columns the help is wrapped to (the cached help of the fast path is written at this width). */
export const HELP_WIDTH = 100;

function commandLine(argv: string[], scriptName: Program, helpHint: string) {
  return yargs(argv)
    .scriptName(scriptName)
    .strict()
    .version(PACKAGE_VERSION)
    .alias("h", "help")
    .wrap(Math.min(HELP_WIDTH, process.stdout.columns || HELP_WIDTH))
    .fail((message, error) => {
      if (error) throw error;
      printError(message, helpHint);
      if (argv.includes("--json")) printJsonError(message, helpHint);
      process.exit(ExitCode.CannotRun);
    });
}

export async function runProgram(program: Program, argv: string[]): Promise<void> {
  if (program === "create-executa") {
    await commandLine(argv, program, "run `create-executa --help`").command({ ...createCommand, command: "$0 [dir]" }).parseAsync();
    return;
  }
  await commandLine(argv, program, "run `executa --help`, or `executa <verb> --help`")
    .usage("$0 <verb> [options]\n\nThe toolchain for Executa plugins: create, manifest, build, test, dev.")
    .command(createCommand)
    .command(manifestCommand)
    .command(buildCommand)
    .command(testCommand)
    .command(devCommand)
    .demandCommand(1, "name a verb: create, manifest, build, test or dev")
    .recommendCommands()
    .parseAsync();
}
