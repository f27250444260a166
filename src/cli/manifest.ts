import type { CommandModule } from "yargs";
import { ExecutaError } from "../common/errors.js";
import { runCommand } from "./run.js";

export const manifestCommand: CommandModule = {
  command: "manifest",
  describe: "(not built yet)",
  handler: () =>
    runCommand(async () => {
      throw new ExecutaError("executa manifest is not built yet");
    }),
};
