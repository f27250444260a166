/** `executa add tool [name] [dir]`: a new tool and its test in the project's language, manifest regenerated. */
import type { CommandModule } from "yargs";
import { ExecutaError } from "../common/errors.js";
import { canPrompt, color } from "../common/term.js";
import type { AddToolResult } from "../scaffold/index.js";
import { defineCommand, jsonOption, type Command } from "./command.js";
import { printJson } from "./run.js";

const ADD_TOOL_OPTIONS = {
  description: {
    doc: "what the tool does, the text the model reads (one line; default: a TODO to replace). In TypeScript an `@` after a space is refused: JSDoc would start a tag there. The TODO placeholders (the tool's, and each parameter's \"TODO: describe x.\") are warnings of `executa manifest`, errors under `--strict`",
    alias: "d",
    type: "string",
    describe: "what the tool does: the description the model reads (default: a TODO to replace)",
  },
  param: {
    doc: 'a parameter, repeatable, in order: `name:type`, `name?:type` (optional), `name:type=value` (a default, which makes it optional), `name:enum(a|b)` (string values), `name:type[]` (an array; `enum(a|b)[]` too). Types: `string`, `integer`, `number`, `boolean`, `object`. Defaults are parsed per type: `3`, `0.5`, `true`, a string as is, a JSON object, an array as JSON (`["a","b"]`) or comma-separated (`a,b`). Names start with a letter and hold letters, digits and `_`',
    value: "<spec>",
    alias: "p",
    type: "string",
    array: true,
    nargs: 1,
    describe:
      "a parameter, repeatable: name:type, name?:type (optional), name:type=value (default), name:enum(a|b), name:type[] (array); types: string, integer, number, boolean, object",
  },
  timeout: {
    doc: "the tool's timeout, a whole number above 0 (default: the runtime's 60)",
    value: "<seconds>",
    type: "number",
    describe: "the tool's timeout in seconds (default: the runtime's 60)",
  },
  yes: { alias: "y", type: "boolean", default: false, describe: "ask nothing" },
  "dry-run": {
    doc: "list the files it would write and the generated files it would regenerate; write nothing",
    type: "boolean",
    default: false,
    describe: "list the files it would write and write nothing",
  },
  ...jsonOption(
    'one object on stdout: `{status, dryRun, tool, language, dir, files, regenerated, next}`, or `{status: "error", error: {message, hint}}`',
  ),
} as const;

const EXAMPLE_ONE_SHOT =
  'executa add tool fetch_weather --description "Get the forecast for a city." --param city:string';

interface Answers {
  name?: string;
  description?: string;
  params: string[];
}

async function ask(answers: Answers): Promise<Answers> {
  const { default: prompts } = await import("prompts");
  const { parseParam, TOOL_NAME } = await import("../scaffold/index.js");
  const cancelled = () => {
    throw new ExecutaError("cancelled; nothing was written", { exitCode: 130 });
  };
  const first = await prompts(
    [
      {
        type: answers.name ? null : "text",
        name: "name",
        message: "Tool name",
        validate: (v: string) =>
          TOOL_NAME.test(v.trim()) || "letters and digits in words joined by _ or -, e.g. fetch_weather",
      },
      {
        type: answers.description ? null : "text",
        name: "description",
        message: "What it does (the model reads this)",
      },
    ],
    { onCancel: cancelled },
  );
  const result = { ...answers, ...Object.fromEntries(Object.entries(first).filter(([, v]) => v !== "")) } as Answers;
  if (answers.params.length > 0) return result;
  for (;;) {
    const { spec } = await prompts(
      {
        type: "text",
        name: "spec",
        message: `Parameter ${result.params.length + 1} (name:type, e.g. days?:integer=3; empty to finish)`,
        validate: (v: string) => {
          if (!v.trim()) return true;
          try {
            parseParam(v.trim());
            return true;
          } catch (error) {
            return (error as Error).message;
          }
        },
      },
      { onCancel: cancelled },
    );
    if (!spec?.trim()) return result;
    result.params.push(spec.trim());
  }
}

function printHuman(result: AddToolResult): void {
  const out = process.stdout;
  const dry = result.dryRun;
  out.write(`${dry ? "Would add" : color.green("Added", out)} the tool ${result.tool} to ${result.dir}:\n`);
  for (const f of result.files) out.write(`  ${color.green("+", out)} ${f}\n`);
  for (const f of result.regenerated)
    out.write(`  ${color.cyan("~", out)} ${f} (${dry ? "would be regenerated" : "regenerated"})\n`);
  if (dry) out.write("Nothing was written (--dry-run).\n");
  else out.write(`\nNext:\n${result.next.map((n) => `  ${n}`).join("\n")}\n`);
}

const addToolCommand = defineCommand({
  command: "tool [name] [dir]",
  describe: "add a tool and its test, written the way the project's template writes tools, and regenerate the manifest",
  positionals: {
    name: {
      type: "string",
      describe: "the tool's name in the manifest, e.g. fetch_weather",
      doc: "the tool's name in the manifest: words of letters and digits joined by single `_` or `-`, starting with a letter, at most 64 characters",
    },
  },
  options: ADD_TOOL_OPTIONS,
  examples: [
    [
      '$0 add tool fetch_weather --description "Get the forecast for a city." --param city:string --param "days?:integer=3"',
      "a tool with a required and an optional parameter",
    ],
    [
      '$0 add tool convert --param "unit:enum(metric|imperial)=metric" --param values:number[] --timeout 30 --dry-run',
      "list what it would write",
    ],
  ],
  async run(argv) {
    let answers: Answers = {
      name: (argv as { name?: string }).name,
      description: argv.description,
      params: (argv.param ?? []).map(String),
    };
    if (canPrompt(argv.yes) && !argv.json && (!answers.name || !answers.description)) answers = await ask(answers);
    if (!answers.name)
      throw new ExecutaError("no tool name given and no terminal to ask on", { hint: `run e.g.: ${EXAMPLE_ONE_SHOT}` });
    const { addTool } = await import("../scaffold/index.js");
    const result = await addTool({
      dir: argv.dir,
      name: answers.name.trim(),
      description: answers.description,
      params: answers.params,
      ...(argv.timeout !== undefined && { timeout: argv.timeout }),
      dryRun: argv["dry-run"],
    });
    if (argv.json) printJson("ok", result);
    else printHuman(result);
  },
});

/** `executa add <kind>`: today one kind, `tool`. */
export const addCommand: Command = {
  command: "add",
  describe: "add to the project: `add tool <name>` writes a new tool and its test",
  examples: addToolCommand.examples,
  untilInterrupted: false,
  options: addToolCommand.options,
  positionals: addToolCommand.positionals,
  dashDash: undefined,
  builder: (y) =>
    y.command(addToolCommand as CommandModule).demandCommand(1, "name what to add: executa add tool <name>"),
  handler: () => {},
};
