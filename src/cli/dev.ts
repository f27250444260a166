import type { CommandModule } from "yargs";
import { ExecutaError } from "../common/errors.js";
import { runCommand } from "./run.js";

export const devCommand: CommandModule = {
  command: "dev",
  describe: "(not built yet)",
  handler: () =>
    runCommand(async () => {
      throw new ExecutaError("executa dev is not built yet");
    }),
};
