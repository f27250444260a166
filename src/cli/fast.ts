/**
 * The answers that need no command line parser: `--version`, a bare `--help` from the help text
 * written at package build time (scripts/build-cli.mjs; a test proves it equal to the live help),
 * and the command lines CI runs on every commit (`executa manifest --check [dir]`: only switches of
 * the verb's own table and at most a folder), parsed straight from that table. Everything else goes
 * to yargs, whose setup costs more than the work of such a command.
 */
import { readFileSync } from "node:fs";
import { PACKAGE_VERSION } from "../common/package-info.js";
import type { Command } from "./command.js";

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

const FAST_VERBS: Record<string, () => Promise<Command>> = {
  manifest: async () => (await import("./manifest.js")).manifestCommand,
};

/**
 * The parsed arguments when `rest` holds only `--switch` / `--no-switch` of the table's booleans
 * and at most one folder; undefined for anything yargs should judge (values, aliases, unknown
 * flags, `--`, help).
 */
export function switchesOnly(command: Command, rest: readonly string[]): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = { _: [String(command.command).split(" ")[0]] };
  for (const [name, option] of Object.entries(command.options))
    if (option.default !== undefined) args[name] = option.default;
  let dir: string | undefined;
  for (const arg of rest) {
    if (!arg.startsWith("-")) {
      if (dir !== undefined) return undefined;
      dir = arg;
      continue;
    }
    const negated = arg.startsWith("--no-");
    const name = negated ? arg.slice(5) : arg.slice(2);
    if (!arg.startsWith("--") || command.options[name]?.type !== "boolean") return undefined;
    args[name] = !negated;
  }
  if (dir !== undefined) args.dir = dir;
  return args;
}

/** Runs a fast verb's command line without yargs; false when it is not one. */
export async function runFastVerb(argv: readonly string[]): Promise<boolean> {
  const load = FAST_VERBS[argv[0] ?? ""];
  if (!load || process.env.EXECUTA_NO_FAST_PATH) return false;
  const command = await load();
  const args = switchesOnly(command, argv.slice(1));
  if (!args) return false;
  const { endQuietlyOnClosedPipe } = await import("./run.js");
  endQuietlyOnClosedPipe();
  await command.handler(args as never);
  return true;
}
