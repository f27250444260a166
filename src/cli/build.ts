import type { CommandModule } from "yargs";
import { ExecutaError } from "../common/errors.js";
import { runCommand } from "./run.js";

export const buildCommand: CommandModule = {
  command: "build",
  describe: "(not built yet)",
  handler: () =>
    runCommand(async () => {
      throw new ExecutaError("executa build is not built yet");
    }),
};
