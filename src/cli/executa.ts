/** `executa <verb>`: the toolchain. Each verb loads only the modules it uses. */
import { answerFast, runFastVerb } from "./fast.js";

const argv = process.argv.slice(2);
if (!answerFast("executa", argv) && !(await runFastVerb(argv)))
  await (await import("./program.js")).runProgram("executa", argv);
