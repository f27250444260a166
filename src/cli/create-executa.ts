/** `create-executa [dir]`: the same as `executa create`. */
import { answerFast } from "./fast.js";

if (!answerFast("create-executa", process.argv.slice(2)))
  await (await import("./program.js")).runProgram("create-executa", process.argv.slice(2));
