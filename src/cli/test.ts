import type { CommandModule } from "yargs";
import { ExecutaError } from "../common/errors.js";
import { runCommand } from "./run.js";

export const testCommand: CommandModule = {
  command: "test",
  describe: "(not built yet)",
  handler: () =>
    runCommand(async () => {
      throw new ExecutaError("executa test is not built yet");
    }),
};
