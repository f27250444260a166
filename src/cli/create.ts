/** `executa create [dir]` and `create-executa [dir]`: scaffold a plugin project. */
import { basename } from "node:path";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { canPrompt, color } from "../common/term.js";
import {
  createCommand,
  DEFAULT_TEMPLATE,
  LANGUAGES,
  LANGUAGE_NAMES,
  PACKAGE_MANAGER_NAMES,
  TEMPLATE_NAMES,
  TEMPLATES,
  type PackageManager,
} from "../project/index.js";
import type { ProjectAnswers, ScaffoldResult } from "../scaffold/index.js";
import { defineCommand, jsonOption } from "./command.js";
import { printJson } from "./run.js";

const DEFAULT_NAME = "my-executa-plugin";

const CREATE_OPTIONS = {
  lang: {
    value: LANGUAGE_NAMES.join("|"),
    doc: "the language (`typescript`, `py`, `golang` also accepted); an unknown one is an error listing these",
    alias: "l",
    type: "string",
    describe: `plugin language: ${LANGUAGE_NAMES.join(", ")}`,
  },
  template: {
    value: TEMPLATE_NAMES.join("|"),
    doc: "the tools to start from (default `examples`; asked when interactive): `minimal` one short tool (`greet`) and its test; `examples` the three tools below; `services` three tools that use the protocol 2.0 host services: `triage` (the host's model with a `json_schema` response format, the parsed value used), `tally` (a counter in the host's key-value storage, in the host's default scope or one you name) and `research` (an agent session, its answer and the run's warnings). Every template passes its own tests, `executa manifest --check --strict` and `executa test` out of the box. An unknown one is an error listing these",
    alias: "t",
    type: "string",
    describe: `the tools to start from: ${TEMPLATE_NAMES.map((t) => `${t} (${TEMPLATES[t].summary})`).join("; ")}. Default ${DEFAULT_TEMPLATE}`,
  },
  name: {
    doc: "project name: the npm package, the Python module (`-` becomes `_`) and the Go module path; default the folder name. Lowercase letters, digits and single `-` `_` `.` between them. Each language's rules apply to its projects only: TypeScript, not a Node built-in (npm reserves them); Python, not a Python keyword or standard-library module; Go, a module path that is not a standard-library package (`os`, `net/http`: every import of it would be ambiguous; the list is `data/generated/go-std-packages.json`)",
    alias: "n",
    type: "string",
    describe: "project name: npm package, Python module and Go module path (default: the folder name)",
  },
  "display-name": { type: "string", describe: "human name shown in Anna (default: the name in Title Case)" },
  description: {
    doc: "one paragraph on what the plugin does",
    type: "string",
    describe: "one-paragraph description of the plugin",
  },
  author: { type: "string", describe: "author (default: git's user.name)" },
  license: {
    doc: "SPDX identifier or expression (default `MIT`)",
    type: "string",
    describe: "SPDX license identifier",
    default: "MIT",
  },
  "tool-id": {
    doc: "Anna tool id: the manifest `name`, the executable name, the pyproject script and package.json bin key (default: the name; replace it with the id Anna mints when you publish)",
    type: "string",
    describe: "Anna tool id: the manifest name and executable name (default: the name)",
  },
  "go-module": { type: "string", describe: "Go module path for --lang go (default: the name)" },
  yes: {
    alias: "y",
    type: "boolean",
    default: false,
    describe: "ask nothing; use defaults for everything not given (language: ts)",
  },
  install: {
    doc: "do not install dependencies (`npm install`; `uv sync`, or a `.venv` with pip; `go mod download`)",
    type: "boolean",
    default: true,
    describe: "install dependencies (--no-install to skip)",
  },
  git: {
    doc: "do not `git init` and commit (skipped anyway inside an existing repository or without git)",
    type: "boolean",
    default: true,
    describe: "git init and a first commit (--no-git to skip)",
  },
  force: {
    doc: "add the project to a folder that is not empty. Existing files are never overwritten: if any file of the project already exists, the command lists them and stops, writing nothing",
    type: "boolean",
    default: false,
    describe: "add the project to a non-empty folder; stops, writing nothing, if any file it would write exists",
  },
  "dry-run": { type: "boolean", default: false, describe: "list the files that would be written and write nothing" },
  "package-manager": {
    value: PACKAGE_MANAGER_NAMES.join("|"),
    doc: "the package manager the project uses (default: the one that ran `create-executa`, else npm); see [package managers](#executa-add-tool-name-dir-and-package-managers)",
    type: "string",
    describe: `${PACKAGE_MANAGER_NAMES.join(", ")}: installs the dependencies and is named in the scripts, README, workflow and next steps (default: the one that ran create-executa, else npm)`,
  },
  toolchain: {
    doc: "TypeScript with npm: install this create-executa (a tarball or folder) without saving it; package.json keeps `^` this version, and package-lock.json, written first, resolves it from the registry (what CI's `npm ci` installs; skipped, saying so, while the registry has no such version). Refused with another package manager",
    value: "<npm spec>",
    type: "string",
    describe:
      "TypeScript with npm: install this create-executa (a tarball or folder) instead of the registry's; generated files, package-lock.json included, always name the registry's",
  },
  ...jsonOption(
    "print one JSON summary (`status`, `dir`, `lang`, `template`, `packageManager`, `files`, `steps`, `next`) on stdout",
  ),
} as const;

interface CreateArgs extends ProjectAnswers {
  dir?: string;
  yes: boolean;
}

/** The one-shot command that gives the missing answers, for the non-interactive error. */
function oneShot(args: CreateArgs, pm: PackageManager): string {
  const template = args.template ? ` --template ${args.template}` : "";
  return createCommand(pm, args.dir ?? args.name ?? DEFAULT_NAME, `--lang ${args.lang ?? "ts"}${template} --yes`);
}

async function ask(args: CreateArgs, nameProblem: (name: string) => string | undefined): Promise<CreateArgs> {
  const { default: prompts } = await import("prompts");
  const cancelled = () => {
    throw new ExecutaError("cancelled; nothing was written", { exitCode: 130 });
  };
  const answers = await prompts(
    [
      {
        type: args.dir || args.name ? null : "text",
        name: "dir",
        message: "Project folder",
        initial: DEFAULT_NAME,
        validate: (v: string) => nameProblem(basename(v.trim())) ?? true,
      },
      {
        type: args.lang ? null : "select",
        name: "lang",
        message: "Language",
        choices: LANGUAGE_NAMES.map((l) => ({ title: LANGUAGES[l].title, value: l })),
      },
      {
        type: args.template ? null : "select",
        name: "template",
        message: "Template",
        choices: TEMPLATE_NAMES.map((t) => ({ title: t, description: TEMPLATES[t].summary, value: t })),
        initial: TEMPLATE_NAMES.indexOf(DEFAULT_TEMPLATE),
      },
      { type: args.displayName ? null : "text", name: "displayName", message: "Display name (shown in Anna)" },
      { type: args.description ? null : "text", name: "description", message: "Description" },
    ],
    { onCancel: cancelled },
  );
  return { ...args, ...Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== "")) };
}

async function gitUserName(): Promise<string | undefined> {
  const { exec } = await import("../common/exec.js");
  const result = await exec("git", ["config", "user.name"]);
  return result.code === 0 ? result.stdout.trim() || undefined : undefined;
}

function printHuman(result: ScaffoldResult): void {
  const out = process.stdout;
  if (result.status === "dry-run") {
    out.write(`Would create ${result.dir} (${LANGUAGES[result.lang].title}, ${result.template} template) with:\n`);
    for (const f of result.files) out.write(`  ${f}\n`);
    out.write(
      `  manifest.json and the bindings file, generated by executa manifest\nNothing was written (--dry-run).\n`,
    );
    return;
  }
  out.write(
    `\n${color.green("Created", out)} ${result.name} (${LANGUAGES[result.lang].title}, ${result.template} template) in ${result.dir}\n`,
  );
  for (const step of result.steps) {
    const mark =
      step.status === "done"
        ? color.green("✔", out)
        : step.status === "skipped"
          ? color.dim("-", out)
          : color.yellow("!", out);
    out.write(`  ${mark} ${step.step}: ${step.status}${step.message ? ` (${step.message})` : ""}\n`);
    if (step.manual && step.status !== "done") out.write(`      run by hand: ${step.manual}\n`);
  }
  out.write(`\nNext steps:\n${result.next.map((n) => `  ${n}`).join("\n")}\n`);
}

/** `executa create [dir]`, or the whole `create-executa [dir]` command line. */
export const createCommandFor = (program: "executa" | "create-executa") =>
  defineCommand<typeof CREATE_OPTIONS, string | undefined>({
    command: program === "executa" ? "create [dir]" : "$0 [dir]",
    describe: "scaffold a plugin project in TypeScript, Python or Go",
    optionalDir: true,
    options: CREATE_OPTIONS,
    examples: [
      [
        `$0${program === "executa" ? " create" : ""} my-plugin --lang python --yes`,
        "a Python plugin with defaults, no questions",
      ],
      ["npm create executa@latest my-plugin -- --lang go", "the same through npm create"],
      ["pnpm create executa my-plugin --lang ts", "through pnpm: it installs and its scripts, README and CI use pnpm"],
      [
        `$0${program === "executa" ? " create" : ""} my-plugin --lang go --template services --yes`,
        "a Go plugin whose tools use the host's model, storage and an agent session",
      ],
    ],
    async run(argv) {
      let args: CreateArgs = {
        ...argv,
        displayName: argv["display-name"],
        toolId: argv["tool-id"],
        goModule: argv["go-module"],
      };
      const { makeSpec, nameProblem, scaffold } = await import("../scaffold/index.js");
      const { resolveLanguage, resolvePackageManager, resolveTemplate } = await import("../project/index.js");
      const packageManager = await resolvePackageManager(argv["package-manager"]);
      if (argv.template !== undefined) args.template = resolveTemplate(argv.template); // a bad value fails before any question
      const interactive = canPrompt(args.yes);
      if (
        interactive &&
        (!args.lang || !args.template || !(args.dir || args.name) || !args.displayName || !args.description)
      )
        args = await ask(args, nameProblem);
      if (!args.lang && !args.yes) {
        throw new ExecutaError("no language given and no terminal to ask on", {
          hint: `run: ${oneShot(args, packageManager)}`,
        });
      }
      if (!args.dir && !args.name && !args.yes) {
        throw new ExecutaError("no project folder given and no terminal to ask on", {
          hint: `run: ${oneShot(args, packageManager)}`,
        });
      }
      const dir = args.dir ?? args.name ?? DEFAULT_NAME;
      const name = args.name ?? basename(dir);
      const problem = nameProblem(name, resolveLanguage(args.lang ?? "ts"));
      if (!args.name && problem) {
        throw new ExecutaError(`the folder name '${name}' is not a valid project name: ${problem}`, {
          hint: `pass a name, e.g. --name ${DEFAULT_NAME}`,
        });
      }
      const spec = makeSpec({ ...args, lang: args.lang ?? "ts", name, author: args.author ?? (await gitUserName()) });
      const result = await scaffold({
        targetDir: dir,
        spec,
        toolchainSpec: argv.toolchain,
        force: argv.force,
        dryRun: argv["dry-run"],
        install: argv.install,
        git: argv.git,
        quiet: argv.json,
        packageManager,
      });
      const failed = result.steps.some((s) => s.status === "failed");
      if (argv.json) printJson(failed ? "failed" : "ok", { ...result, dryRun: result.status === "dry-run" });
      else printHuman(result);
      return failed ? ExitCode.Failed : ExitCode.Ok;
    },
  });
