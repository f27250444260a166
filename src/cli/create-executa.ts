/** `create-executa [dir]`: the same as `executa create`. */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { PACKAGE_VERSION } from "../common/package-info.js";
import { ExitCode } from "../common/errors.js";
import { createCommand } from "./create.js";
import { printError } from "./run.js";

await yargs(hideBin(process.argv))
  .scriptName("create-executa")
  .command({ ...createCommand, command: "$0 [dir]" })
  .strict()
  .version(PACKAGE_VERSION)
  .alias("h", "help")
  .wrap(Math.min(100, process.stdout.columns || 100))
  .fail((message, error) => {
    if (error) throw error;
    printError(message, "run `create-executa --help`");
    process.exit(ExitCode.CannotRun);
  })
  .parseAsync();
