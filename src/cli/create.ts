import type { CommandModule } from "yargs";
import { ExecutaError } from "../common/errors.js";
import { runCommand } from "./run.js";

export const createCommand: CommandModule = {
  command: "create",
  describe: "(not built yet)",
  handler: () =>
    runCommand(async () => {
      throw new ExecutaError("executa create is not built yet");
    }),
};
