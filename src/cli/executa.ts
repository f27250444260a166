/** `executa <verb>`: the toolchain. */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { PACKAGE_VERSION } from "../common/package-info.js";
import { ExitCode } from "../common/errors.js";
import { buildCommand } from "./build.js";
import { createCommand } from "./create.js";
import { devCommand } from "./dev.js";
import { manifestCommand } from "./manifest.js";
import { printError } from "./run.js";
import { testCommand } from "./test.js";

export async function main(argv: string[]): Promise<void> {
  await yargs(argv)
    .scriptName("executa")
    .usage("$0 <verb> [options]\n\nThe toolchain for Executa plugins: create, manifest, build, test, dev.")
    .command(createCommand)
    .command(manifestCommand)
    .command(buildCommand)
    .command(testCommand)
    .command(devCommand)
    .demandCommand(1, "name a verb: create, manifest, build, test or dev")
    .recommendCommands()
    .strict()
    .version(PACKAGE_VERSION)
    .alias("h", "help")
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      printError(message, "run `executa --help`, or `executa <verb> --help`");
      process.exit(ExitCode.CannotRun);
    })
    .parseAsync();
}

await main(hideBin(process.argv));
