/** The two command lines, `executa <verb>` and `create-executa [dir]`, on one yargs setup. */
import yargs from "yargs";
import { ExitCode } from "../common/errors.js";
import { addCommand } from "./add.js";
import { PACKAGE_VERSION } from "../common/package-info.js";
import { buildCommand } from "./build.js";
import { createCommandFor } from "./create.js";
import { devCommand } from "./dev.js";
import { initCommand } from "./init.js";
import { inspectCommand } from "./inspect.js";
import { manifestCommand } from "./manifest.js";
import type { Command } from "./command.js";
import { endQuietlyOnClosedPipe, printError, printJsonError } from "./run.js";
import { testCommand } from "./test.js";
import { upgradeCommand } from "./upgrade.js";

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

/** The verbs of each command line, in help order. */
export function commandsOf(program: Program): Command[] {
  if (program === "create-executa") return [createCommandFor("create-executa")];
  return [
    createCommandFor("executa"),
    initCommand,
    manifestCommand,
    buildCommand,
    testCommand,
    devCommand,
    inspectCommand,
    addCommand,
    upgradeCommand,
  ];
}

export async function runProgram(program: Program, argv: string[]): Promise<void> {
  endQuietlyOnClosedPipe();
  if (program === "create-executa") {
    await commandLine(argv, program, "run `create-executa --help`").command(commandsOf(program)[0]!).parseAsync();
    return;
  }
  const verbs = commandsOf(program).map((c) => String(c.command).split(" ")[0]!);
  let line = commandLine(argv, program, "run `executa --help`, or `executa <verb> --help`").usage(
    `$0 <verb> [options]\n\nThe toolchain for Executa plugins: ${verbs.join(", ")}.`,
  );
  for (const command of commandsOf(program)) line = line.command(command);
  await line
    .demandCommand(1, `name a verb: ${verbs.join(", ")}`)
    .recommendCommands()
    .parseAsync();
}
