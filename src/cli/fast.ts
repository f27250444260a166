/**
 * The answers that need no command line parser: `--version`, and a bare `--help` from the help text
 * written at package build time (scripts/write-help.mjs; a test proves it equal to the live help).
 */
import { readFileSync } from "node:fs";
import { PACKAGE_VERSION } from "../common/package-info.js";

export function helpFile(program: string): URL {
  return new URL(`help/${program}.txt`, import.meta.url);
}

/** Prints the answer and returns true when `argv` is a bare --version or --help; false otherwise. */
export function answerFast(program: string, argv: readonly string[]): boolean {
  if (argv.length !== 1 || process.env.EXECUTA_NO_FAST_PATH) return false;
  if (argv[0] === "--version") {
    process.stdout.write(PACKAGE_VERSION + "\n");
    return true;
  }
  const narrow = process.stdout.isTTY && (process.stdout.columns ?? 100) < 100;
  if ((argv[0] === "--help" || argv[0] === "-h") && !narrow) {
    try {
      process.stdout.write(readFileSync(helpFile(program), "utf8"));
      return true;
    } catch {
      return false;
    }
  }
  return false;
}
