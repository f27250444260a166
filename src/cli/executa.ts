/** `executa <verb>`: the toolchain. */
import { hideBin } from "yargs/helpers";
import { buildCommand } from "./build.js";
import { createCommand } from "./create.js";
import { devCommand } from "./dev.js";
import { manifestCommand } from "./manifest.js";
import { commandLine } from "./run.js";
import { testCommand } from "./test.js";

await commandLine(hideBin(process.argv), "executa", "run `executa --help`, or `executa <verb> --help`")
  .usage("$0 <verb> [options]\n\nThe toolchain for Executa plugins: create, manifest, build, test, dev.")
  .command(createCommand)
  .command(manifestCommand)
  .command(buildCommand)
  .command(testCommand)
  .command(devCommand)
  .demandCommand(1, "name a verb: create, manifest, build, test or dev")
  .recommendCommands()
  .parseAsync();
