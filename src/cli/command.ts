/**
 * One command: its options declared once (typed, described), the project folder taken the same way
 * by every command, `-- <command>` where it applies, and a handler that loads its core lazily.
 */
import type { Argv, CommandModule, InferredOptionTypes, PositionalOptions } from "yargs";
import { yargsOptions, type OptionTable } from "../common/options.js";
import { runCommand } from "./run.js";

export type { OptionTable } from "../common/options.js";

/** Every command that reads a project takes it as `[dir]`, default the current folder. */
export const DIR_POSITIONAL = { type: "string", default: ".", describe: "The plugin project's folder" } as const;
const OPTIONAL_DIR = { type: "string", describe: "folder to create (default: the name)" } as const;

/** `--json`; `doc` says what the object holds for the command. */
export function jsonOption(doc: string) {
  return {
    json: {
      type: "boolean" as const,
      default: false,
      describe: "Print exactly one JSON object on stdout: {status: ok|failed|error, ...}",
      doc,
    },
  };
}

export interface CommandSpec<O extends OptionTable, Dir extends string | undefined = string> {
  /** e.g. "manifest [dir]". */
  command: string;
  describe: string;
  usage?: string;
  options: O;
  /** `$0 <verb> ...` lines that run as written in a project of this toolchain. */
  examples?: readonly Example[];
  /** Takes a plugin command after `--` (e.g. `executa test -- python3 plugin.py`): what it means, for the README. */
  dashDash?: string;
  /** Runs until Ctrl-C (inspect): its examples are run until they print a URL, then interrupted. */
  untilInterrupted?: boolean;
  /** Positionals of the command line other than `[dir]` (e.g. add tool's `[name]`). */
  positionals?: Record<string, PositionalOptions & { doc?: string }>;
  /** `[dir]` has no default (create: the folder comes from the name). */
  optionalDir?: Dir extends string ? false : true;
  run(args: InferredOptionTypes<O> & { dir: Dir; "--"?: string[] }): Promise<number | void>;
}

/** The command after `--`, if one was given. */
export function commandAfterDashes(args: { "--"?: string[] }): string[] | undefined {
  return args["--"]?.length ? args["--"].map(String) : undefined;
}

export type Example = readonly [command: string, meaning: string];

/** A yargs command module that also exposes its declaration (its examples run in a test; its options make the README's table). */
export type Command = CommandModule & {
  examples: readonly Example[];
  untilInterrupted: boolean;
  options: OptionTable;
  positionals: Record<string, PositionalOptions & { doc?: string }>;
  /** The meaning of `-- <command> [args]`, when the command takes one. */
  dashDash: string | undefined;
};

export function defineCommand<O extends OptionTable, Dir extends string | undefined = string>(
  spec: CommandSpec<O, Dir>,
): Command {
  return {
    examples: spec.examples ?? [],
    untilInterrupted: spec.untilInterrupted ?? false,
    options: spec.options,
    positionals: {
      ...spec.positionals,
      ...(spec.command.includes("[dir]") && { dir: spec.optionalDir ? OPTIONAL_DIR : DIR_POSITIONAL }),
    },
    dashDash: spec.dashDash,
    command: spec.command,
    describe: spec.describe,
    builder: (y: Argv) => {
      let b = y.parserConfiguration({ "populate--": true });
      if (spec.usage) b = b.usage(spec.usage);
      for (const [name, { doc: _doc, ...options }] of Object.entries(spec.positionals ?? {}))
        b = b.positional(name, options);
      if (spec.command.includes("[dir]")) b = b.positional("dir", spec.optionalDir ? OPTIONAL_DIR : DIR_POSITIONAL);
      b = b.options(yargsOptions(spec.options));
      for (const [command, meaning] of spec.examples ?? []) b = b.example(command, meaning);
      return b;
    },
    handler: (argv) => {
      const args = argv as unknown as InferredOptionTypes<O> & { dir?: string; json?: boolean; "--"?: string[] };
      const dir = (args.dir ?? (spec.optionalDir ? undefined : ".")) as Dir;
      return runCommand(() => spec.run({ ...args, dir }), Boolean(args.json));
    },
  };
}
