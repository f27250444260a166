/** `executa init [dir]`: bring a plugin create-executa did not generate under the toolchain. */
import { ExecutaError, ExitCode } from "../common/errors.js";
import { canPrompt, color } from "../common/term.js";
import type { EntryCandidate } from "../project/index.js";
import type { InitResult } from "../scaffold/index.js";
import { commandAfterDashes, defineCommand, jsonOption } from "./command.js";
import { printJson } from "./run.js";

async function askWhich(candidates: readonly EntryCandidate[]): Promise<EntryCandidate> {
  const { default: prompts } = await import("prompts");
  const { entry } = await prompts(
    {
      type: "select",
      name: "entry",
      message: "Which file starts the plugin?",
      choices: candidates.map((c) => ({ title: `${c.entry} (${c.type}: ${c.source})`, value: c.entry })),
    },
    {
      onCancel: () => {
        throw new ExecutaError("cancelled; nothing was written", { exitCode: 130 });
      },
    },
  );
  return candidates.find((c) => c.entry === entry)!;
}

function printHuman(result: InitResult): void {
  const out = process.stdout;
  const how = result.command ? `command ${result.command.join(" ")}` : `entry ${result.entry}`;
  const verb = result.status === "dry-run" ? "Would adopt" : "Adopted";
  out.write(
    `${color.green(verb, out)} ${result.tool_id} (${result.type}, ${how}; ${result.tools} tools) in ${result.dir}\n`,
  );
  for (const f of result.files) {
    const mark = f.status === "written" ? color.green("✔", out) : color.dim("-", out);
    out.write(`  ${mark} ${f.path}: ${f.status === "would-write" ? "would write" : f.status}\n`);
  }
  for (const w of result.warnings) out.write(`${color.yellow("warning:", out)} ${w.path ?? ""} ${w.message}\n`);
  for (const note of result.notes) out.write(`${color.dim("note:", out)} ${note}\n`);
  if (result.status === "dry-run") out.write("Nothing was written (--dry-run).\n");
  else out.write(`\nNext steps:\n${result.next.map((n) => `  ${n}`).join("\n")}\n`);
}

export const initCommand = defineCommand({
  command: "init [dir]",
  describe:
    "Adopt a plugin create-executa did not generate (Node, Python, Go or a binary): executa.json, manifest.json from its describe, and with --ci the workflow",
  usage:
    "$0 init [dir] [options] [-- <command> [args...]]\n\nFinds how the plugin in the folder starts (asks when there are several ways, or takes --entry / the command after --), runs it for its describe, and writes executa.json and manifest.json. It never overwrites a file that differs.",
  dashDash:
    "the launch command itself; written to executa.json `command` as given (paths inside the folder made relative); its file (`node x.js`, `python3 x.py`, `python3 -m pkg`, `go run x.go`, `./tool`) becomes `entry`",
  options: {
    entry: {
      doc: "the file that starts the plugin: a `.js` / `.mjs` / `.cjs` (or `.ts`) file, a `.py` script or a package folder with `__main__.py`, a Go main file (built with the folder's package-main files that have no `func main` and no build constraint), or an executable",
      value: "<file>",
      type: "string",
      describe:
        "The file that starts the plugin (a .js/.mjs/.cjs file, a .py script or package folder, a Go main file, an executable), when the folder has several",
    },
    "tool-id": {
      doc: "the Anna tool id (lowercase letters, digits, `.`, `_`, `-`)",
      value: "<id>",
      type: "string",
      describe:
        "Anna tool id (default: package.json executa.tool_id or bin key, the pyproject script, the describe name, the folder name)",
    },
    ci: {
      doc: "also write `.github/workflows/ci.yml`: the language's generated workflow (its build matrix, the attested release with checksums and SBOMs) without the unit-test job (init does not know the plugin's tests), the toolchain through `npx --package=create-executa@^<version>`, `npm ci` / `npm install` only with a package.json; a binary gets one build job on its platform's native runner and no language toolchain. Add the plugin's own test job and install steps",
      type: "boolean",
      default: false,
      describe:
        "Also write .github/workflows/ci.yml: conformance, the manifest check, the build matrix and the attested release",
    },
    yes: {
      doc: "ask nothing (several candidates are then the exit-2 error)",
      alias: "y",
      type: "boolean",
      default: false,
      describe: "Ask nothing; several ways to start the plugin are then an error that lists them",
    },
    "dry-run": {
      type: "boolean",
      default: false,
      describe: "Start the plugin and list the files init would write; write nothing",
    },
    ...jsonOption(
      "one object on stdout: `{status, dir, type, tool_id, entry, command, executa_json, launch, tools, files: [{path, status: written|unchanged|would-write}], warnings, notes, next}`",
    ),
  },
  examples: [
    ["$0 init --entry sampling.go --ci", "a Go folder with several main files: adopt one, and add the workflow"],
    ["$0 init --dry-run --json -- go run github.go", "what init would write for an explicit launch command"],
  ],
  async run(args) {
    const { adoptPlugin, TOOLCHAIN_SPEC } = await import("../scaffold/index.js");
    const command = commandAfterDashes(args);
    const result = await adoptPlugin({
      dir: args.dir,
      shownDir: args.dir,
      ...(args.entry !== undefined && { entry: args.entry }),
      ...(command && { command }),
      ...(args["tool-id"] !== undefined && { toolId: args["tool-id"] }),
      ci: args.ci,
      dryRun: args["dry-run"],
      toolchainSpec: TOOLCHAIN_SPEC,
      ...(canPrompt(args.yes) && !args.json && { choose: askWhich }),
    });
    if (args.json) printJson("ok", { ...result, dryRun: result.status === "dry-run" });
    else printHuman(result);
    return ExitCode.Ok;
  },
});
