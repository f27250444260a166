/**
 * `executa init [dir]`: adopt a plugin create-executa did not generate. Finds how it starts, runs
 * it for its describe, and writes executa.json, manifest.json and (with `ci`) the workflow, never
 * over a file that differs: every refusal comes before the first write.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ExecutaError, ExitCode } from "../../common/errors.js";
import { launchOfEntry, type DetectedLaunch } from "../../host/index.js";
import { describeLaunch, manifestOfAnswer } from "../../manifest/index.js";
import {
  checkProjectPaths,
  EXECUTA_JSON,
  manifestFromPlugin,
  nativePlatformOf,
  readExecutaJson,
  type ExecutaType,
  type JsonObject,
} from "../../project/index.js";
import { formatDiagnostic, type Diagnostic } from "../../protocol/index.js";
import { executaCommand } from "../executa-command.js";
import { TOOL_ID_PATTERN } from "../spec.js";
import { writeProject } from "../write.js";
import { annaCommand, executaJsonFor, type AdoptedCommand } from "./executa-json.js";
import { choosePlugin, type Chooser } from "./plugin.js";
import { adoptedWorkflow, WORKFLOW_PATH } from "./workflow.js";

export type { Chooser } from "./plugin.js";

export interface InitOptions {
  dir: string;
  /** How the author named the folder, for the commands in messages (default: dir). */
  shownDir?: string;
  /** `--entry <file>`: the file that starts the plugin. */
  entry?: string;
  /** `-- <command> [args]`: how the plugin starts. */
  command?: string[];
  toolId?: string;
  /** Also write the GitHub workflow. */
  ci?: boolean;
  dryRun?: boolean;
  /** Asks the author to choose among several candidates; without it several are an error. */
  choose?: Chooser;
  /** The create-executa range the workflow names. */
  toolchainSpec: string;
}

export interface InitFile {
  path: string;
  status: "written" | "unchanged" | "would-write";
}

export interface InitResult {
  status: "adopted" | "dry-run";
  dir: string;
  type: ExecutaType;
  tool_id: string;
  entry?: string;
  command?: string[];
  /** The executa.json init writes (or would write). */
  executa_json: JsonObject;
  /** How init started the plugin for its describe (the way test, dev and build start it). */
  launch: { command: string; args: string[]; source: string };
  tools: number;
  files: InitFile[];
  warnings: Diagnostic[];
  notes: string[];
  next: string[];
}

/** A tool id made of a name the plugin's files give: lowercase, other characters runs of `-`. */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "")
    .slice(0, 128);
}

function toolIdOf(given: string | undefined, derived: Array<unknown>): string {
  const hint = "pass one: --tool-id tool-acme-my-plugin (lowercase letters, digits, '.', '_' and '-')";
  if (given !== undefined) {
    if (!TOOL_ID_PATTERN.test(given))
      throw new ExecutaError(
        `invalid --tool-id '${given}': a tool id holds lowercase letters, digits, '.', '_' and '-', starts and ends with a letter or digit`,
        { hint },
      );
    return given;
  }
  const id = derived
    .filter((v): v is string => typeof v === "string" && v !== "")
    .map(slug)
    .find((v) => TOOL_ID_PATTERN.test(v));
  if (!id) throw new ExecutaError("cannot make a tool id of the plugin's names", { hint });
  return id;
}

function readExisting(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/** How init starts the plugin for its describe; Python writes no __pycache__ into the folder meanwhile. */
function launchOf(
  dir: string,
  type: ExecutaType,
  entry: string | undefined,
  command: string[] | undefined,
): DetectedLaunch {
  const launch: DetectedLaunch = command
    ? { command: command[0]!, args: command.slice(1), cwd: dir, source: "the command after --" }
    : launchOfEntry(dir, type, entry!);
  return { ...launch, env: { ...process.env, ...launch.env, PYTHONDONTWRITEBYTECODE: "1" } };
}

/** An executa.json init did not write can never be what it would write: refused before the plugin runs. Returns one init wrote. */
function adoptedBefore(dir: string): JsonObject | undefined {
  const existing = readExecutaJson(dir);
  if (existing && !manifestFromPlugin(existing)) {
    throw new ExecutaError(
      `${dir} already has an executa.json, and executa init never overwrites; nothing was written`,
      {
        hint: "the folder is already a project: run executa test, manifest or build on it; to adopt it afresh, move executa.json aside first (init takes its tool_id with --tool-id)",
      },
    );
  }
  return existing;
}

export async function adoptPlugin(options: InitOptions): Promise<InitResult> {
  const dir = resolve(options.dir);
  const shownDir = options.shownDir ?? options.dir;
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new ExecutaError(`${dir} is not a folder`, { hint: "pass the folder that holds the plugin" });
  const adopted = adoptedBefore(dir);
  const choice = await choosePlugin(dir, { ...options, shownDir, ...(adopted && { adopted }) });
  const launch = launchOf(dir, choice.type, choice.entry, choice.command);
  const answer = await describeLaunch(launch);
  const toolId = toolIdOf(options.toolId, [choice.toolId, answer.name, basename(dir)]);
  const { manifest, outputs, diagnostics } = manifestOfAnswer(answer, toolId);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length) {
    throw new ExecutaError(
      `the plugin's describe is not a valid manifest, so nothing was written:\n  ${errors.map(formatDiagnostic).join("\n  ")}`,
      {
        hint: "fix the manifest the plugin answers, then run executa init again",
        exitCode: ExitCode.Failed,
      },
    );
  }
  const launchCommand: AdoptedCommand = choice.command
    ? { command: choice.command }
    : annaCommand(dir, choice.type, choice.entry!, toolId);
  const command = launchCommand.command;
  const executaJson = executaJsonFor(choice, toolId, manifest, command);
  const files = [
    { path: EXECUTA_JSON, content: JSON.stringify(executaJson, null, 2) + "\n" },
    { path: outputs[0]!.path, content: outputs[0]!.content },
  ];
  if (options.ci)
    files.push({
      path: WORKFLOW_PATH,
      content: await workflowFor(dir, choice.type, choice.entry, toolId, options.toolchainSpec),
    });

  checkProjectPaths(
    dir,
    files.map((f) => f.path),
  );
  const state = files.map((f) => ({ ...f, existing: readExisting(join(dir, f.path)) }));
  const differ = state.filter((f) => f.existing !== undefined && f.existing !== f.content).map((f) => f.path);
  if (differ.length) {
    const ownManifest = differ.includes(outputs[0]!.path)
      ? `; if the plugin serves manifest.json as its describe, \`executa manifest --from-plugin -- ${[launch.command, ...launch.args].join(" ")}\` rewrites it in canonical form`
      : "";
    throw new ExecutaError(
      `executa init never overwrites, and ${differ.join(", ")} already exist${differ.length === 1 ? "s" : ""} in ${dir} with other content; nothing was written`,
      {
        hint: `move ${differ.length === 1 ? "it" : "them"} aside and run executa init again (\`executa init --dry-run --json\` shows what it would write)${ownManifest}`,
      },
    );
  }
  const toWrite = state.filter((f) => f.existing === undefined);
  if (!options.dryRun)
    await writeProject(
      dir,
      toWrite.map((f) => ({ path: f.path, content: Buffer.from(f.content), mode: 0o644 })),
    );
  const at = shownDir === "." ? "" : ` ${shownDir}`;
  return {
    status: options.dryRun ? "dry-run" : "adopted",
    dir,
    type: choice.type,
    tool_id: toolId,
    ...(choice.entry && { entry: choice.entry }),
    ...(command && { command }),
    executa_json: executaJson,
    launch: { command: launch.command, args: launch.args, source: launch.source },
    tools: Array.isArray(manifest.tools) ? manifest.tools.length : 0,
    files: state.map((f) => ({
      path: f.path,
      status: f.existing !== undefined ? "unchanged" : options.dryRun ? "would-write" : "written",
    })),
    warnings: diagnostics.filter((d) => d.severity === "warning"),
    notes: [
      ...(launchCommand.note ? [launchCommand.note] : []),
      ...(choice.entry
        ? []
        : [
            'executa.json names no "entry", so `executa build` cannot tell which file to package: add "entry" (the file that starts the plugin)',
          ]),
    ],
    next: nextSteps(at),
  };
}

/** Init's next steps, with a command that runs here (an adopted project has no toolchain of its own). */
function nextSteps(at: string): string[] {
  const executa = executaCommand({ name: "npm" }, false);
  return [
    `${executa} test${at}`,
    `${executa} dev${at} --describe`,
    `${executa} manifest${at} --check`,
    `${executa} build${at}`,
  ];
}

async function workflowFor(
  dir: string,
  type: ExecutaType,
  entry: string | undefined,
  toolId: string,
  toolchainSpec: string,
): Promise<string> {
  if (type !== "binary") return adoptedWorkflow(dir, { type, toolId, toolchainSpec });
  const platform = entry ? nativePlatformOf(join(dir, entry)) : undefined;
  if (!platform) {
    throw new ExecutaError(
      `--ci: ${entry ?? "the command"} is not a native executable of one of Anna's platforms, so no build job can package it; nothing was written`,
      {
        hint: "run executa init without --ci, or point --entry at the built executable",
      },
    );
  }
  return adoptedWorkflow(dir, { type, toolId, toolchainSpec, platform });
}
