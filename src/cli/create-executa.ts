/** `create-executa [dir]`: the same as `executa create`. */
import { hideBin } from "yargs/helpers";
import { createCommand } from "./create.js";
import { commandLine } from "./run.js";

await commandLine(hideBin(process.argv), "create-executa", "run `create-executa --help`")
  .command({ ...createCommand, command: "$0 [dir]" })
  .parseAsync();
