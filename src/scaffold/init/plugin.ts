/**
 * `executa init`: which plugin the folder holds and how it starts: the one candidate its files
 * show, the one the author chooses among several, `--entry <file>`, or `-- <command> [args]`.
 */
import { existsSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative } from "node:path";
import { ExecutaError } from "../../common/errors.js";
import {
  candidateOfEntry,
  EXECUTA_TYPES,
  findEntryCandidates,
  goMainFiles,
  insideProject,
  type EntryCandidate,
  type ExecutaType,
  type JsonObject,
} from "../../project/index.js";

export interface PluginChoice {
  type: ExecutaType;
  /** executa.json `entry`: what starts the plugin and what `executa build` packages (absent when a command names no file of the folder). */
  entry?: string;
  /** The author's own `-- <command> [args]`, project-relative. */
  command?: string[];
  source: string;
  /** The tool id the files around the entry give. */
  toolId?: string;
}

/** Asks the author to pick one of several candidates (only where the command may prompt). */
export type Chooser = (candidates: readonly EntryCandidate[]) => Promise<EntryCandidate>;

export interface ChoiceOptions {
  /** executa.json as init wrote it before: run again, init takes the plugin it names. */
  adopted?: JsonObject;
  entry?: string;
  command?: string[];
  choose?: Chooser;
  /** How the author named the folder, for the one-shot commands in messages. */
  shownDir: string;
}

const PYTHONS = /^(?:python(?:3(?:\.\d+)?)?|uv|uvx)(?:\.exe)?$/;

/** A path inside the project, made project-relative (Anna starts the command in the plugin folder). */
function projectRelative(dir: string, arg: string): string {
  if (!isAbsolute(arg)) return arg;
  const rel = relative(dir, arg);
  return insideProject(rel) ? rel : arg;
}

const isFileIn = (dir: string, path: string) =>
  insideProject(path) && existsSync(join(dir, path)) && statSync(join(dir, path)).isFile();

/** The program of a command: a file of the folder as `./file`, so it is not looked up on PATH. */
function programOf(dir: string, arg: string): string {
  if (arg === process.execPath) return "node";
  const rel = projectRelative(dir, arg);
  return isFileIn(dir, rel) && !rel.includes("/") ? `./${rel}` : rel;
}

/** The type and the entry a command shows: `node plugin.js`, `python3 plugin.py`, `python3 -m pkg`, `go run x.go`, `./bin/tool`. */
function choiceOfCommand(dir: string, given: string[]): PluginChoice {
  const command = given.map((arg, i) => (i === 0 ? programOf(dir, arg) : projectRelative(dir, arg)));
  const program = basename(command[0]!);
  const args = command.slice(1);
  const source = "the command after --";
  const firstFile = (ext: RegExp) => args.find((a) => ext.test(a) && isFileIn(dir, a));
  if (/^node(?:js)?(?:\.exe)?$/.test(program)) {
    const entry = firstFile(/\.[cm]?[jt]s$/);
    return { type: "node", command, source, ...(entry && { entry }) };
  }
  if (PYTHONS.test(program)) {
    const module = args.includes("-m") ? args[args.indexOf("-m") + 1]?.split(".").join("/") : undefined;
    const entry = !module
      ? firstFile(/\.py$/)
      : existsSync(join(dir, module, "__main__.py"))
        ? module
        : isFileIn(dir, `${module}.py`)
          ? `${module}.py`
          : undefined;
    return { type: "python", command, source, ...(entry && { entry }) };
  }
  if (/^go(?:\.exe)?$/.test(program) && args[0] === "run") {
    const files = args.slice(1).filter((a) => a.endsWith(".go"));
    const entry = files.length
      ? files.find((f) => goMainFiles(dir).includes(f))
      : args.slice(1).find((a) => !a.startsWith("-"));
    return { type: "go", command, source, ...(entry && { entry }) };
  }
  return {
    type: "binary",
    command,
    source,
    ...(isFileIn(dir, command[0]!) && { entry: command[0]!.replace(/^\.\//, "") }),
  };
}

function describeCandidates(candidates: readonly EntryCandidate[]): string {
  return candidates.map((c) => `\n  ${c.entry.padEnd(24)} ${c.type}: ${c.source}`).join("");
}

/** The plugin an executa.json init wrote names (its entry, its command). */
function choiceOfExisting(adopted: JsonObject): PluginChoice | undefined {
  const type = EXECUTA_TYPES.find((t) => t === adopted.type);
  const entry = typeof adopted.entry === "string" ? adopted.entry : undefined;
  const command =
    Array.isArray(adopted.command) && adopted.command.every((a) => typeof a === "string")
      ? (adopted.command as string[])
      : undefined;
  if (!type || (!entry && !command)) return undefined;
  return {
    type,
    ...(entry && { entry }),
    ...(command && { command }),
    source: "executa.json",
    ...(typeof adopted.tool_id === "string" && { toolId: adopted.tool_id }),
  };
}

/** The plugin `executa init` adopts in `dir`; throws (exit 2) when there is none, or several and no way to ask. */
export async function choosePlugin(dir: string, options: ChoiceOptions): Promise<PluginChoice> {
  const again =
    !options.entry && !options.command?.length && options.adopted ? choiceOfExisting(options.adopted) : undefined;
  if (again) return again;
  if (options.command?.length) {
    if (options.entry)
      throw new ExecutaError("--entry and a command after -- both say how the plugin starts", {
        hint: "give one of them",
      });
    return choiceOfCommand(dir, options.command);
  }
  const at = options.shownDir === "." ? "" : ` ${options.shownDir}`;
  if (options.entry) {
    const entry = projectRelative(dir, options.entry).replace(/^\.\//, "") || ".";
    if (!insideProject(entry))
      throw new ExecutaError(`--entry ${options.entry} is outside ${dir}`, {
        hint: "name a file inside the plugin folder",
      });
    return candidateOfEntry(dir, entry);
  }
  const candidates = findEntryCandidates(dir);
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new ExecutaError(
      `no plugin found in ${dir}: no pyproject.toml script, package.json bin or main, script reading stdin, Go main or executable`,
      {
        hint: `name the file that starts it: executa init${at} --entry <file>, or give the command: executa init${at} -- <command> [args]`,
      },
    );
  }
  if (options.choose) return options.choose(candidates);
  throw new ExecutaError(
    `several ways to start the plugin in ${dir}, and no terminal to ask on:${describeCandidates(candidates)}`,
    {
      hint: `choose one: ${candidates.map((c) => `executa init${at} --entry ${c.entry}`).join(" | ")}; or give the command: executa init${at} -- <command> [args]`,
    },
  );
}
