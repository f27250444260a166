/** `executa <verb>`: the toolchain. Each verb loads only the modules it uses. */
import { answerFast } from "./fast.js";

if (!answerFast("executa", process.argv.slice(2))) await (await import("./program.js")).runProgram("executa", process.argv.slice(2));
