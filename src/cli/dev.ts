/** `executa dev`: the workbench. A REPL by default; one-shots (--describe, --invoke) for scripts. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Response } from "../host/index.js";
import type { Workbench } from "../workbench/index.js";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color, printable } from "../common/term.js";
import { defineCommand } from "./command.js";
import { printJson } from "./run.js";
import {
  CREDENTIAL_OPTIONS,
  credentialsFrom,
  GENERATED_FILES,
  launchFrom,
  manifestRegenerator,
  MOCK_HOST_OPTIONS,
  mockHostOptionsFrom,
  PLUGIN_USAGE,
  unusedRulesReport,
  warnUnusedRules,
} from "./plugin-options.js";

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ExecutaError(`--args is not JSON: ${(error as Error).message}`, {
      hint: `quote it for the shell: --args '{"text": "hi"}'`,
    });
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new ExecutaError("--args must be a JSON object", { hint: `e.g. --args '{"text": "hi"}'` });
  return value as Record<string, unknown>;
}

/** A one-shot's answer; a plugin that exits or falls silent before answering is one clear error. */
async function oneShotAnswer(what: string, workbench: Workbench, ask: () => Promise<Response>): Promise<Response> {
  const { describeExit, PluginExited, RpcTimeout } = await import("../host/index.js");
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof PluginExited || error instanceof RpcTimeout)) throw error;
    const tail = workbench.session?.stderr.trim().split("\n").slice(-3).join(" / ");
    const message =
      error instanceof RpcTimeout
        ? `${error.message} (${what})`
        : error.spawnError
          ? error.message
          : `the plugin exited during ${what} (${describeExit(error.exit)})`;
    throw new ExecutaError(message, {
      exitCode: ExitCode.Failed,
      hint: tail
        ? `its last stderr: ${printable(tail.slice(-300))}`
        : "it wrote nothing to stderr; run executa dev without --invoke to watch it",
    });
  }
}

/** 0 when the answer is a result (and, for invoke, success true); 1 otherwise. */
function exitFor(r: Response, invoke: boolean): number {
  if ("error" in r.frame) return ExitCode.Failed;
  if (invoke && (r.frame.result as { success?: unknown } | undefined)?.success !== true) return ExitCode.Failed;
  return ExitCode.Ok;
}

export const devCommand = defineCommand({
  command: "dev [dir]",
  describe:
    "The workbench: a REPL on a running plugin (describe, invoke, health, trace, restart), or one-shots for scripts",
  usage: `$0 dev ${PLUGIN_USAGE}\n\nStarts the plugin (detected from its folder, or the command after --) behind a mock host that answers its reverse requests.`,
  dashDash: "start the plugin with this command instead of the one detected from the folder, run in `dir`",
  options: {
    describe: {
      doc: "one-shot: print the manifest, then stop",
      type: "boolean",
      default: false,
      describe: "One-shot: print the manifest the plugin serves, then stop",
    },
    invoke: {
      doc: "one-shot invoke: call this tool with `--args`, print the result, then stop",
      value: "<tool>",
      type: "string",
      describe: "One-shot: invoke this tool (with --args), print the result, then stop",
    },
    args: { value: "'<json>'", type: "string", describe: 'The JSON arguments for --invoke, e.g. \'{"text": "hi"}\'' },
    health: {
      doc: "one-shot health",
      type: "boolean",
      default: false,
      describe: "One-shot: print the plugin's health, then stop",
    },
    json: {
      doc: "one-shots print only the JSON answer on stdout",
      type: "boolean",
      default: false,
      describe: "One-shots: print one JSON object {status, answer} on stdout (events go to stderr)",
    },
    watch: {
      doc: "restart the plugin when its sources change (TypeScript compiles again, Go rebuilds)",
      type: "boolean",
      default: false,
      describe:
        "Regenerate the manifest and restart the plugin when its sources change (TypeScript is compiled again, Go rebuilt)",
    },
    record: {
      doc: 'append every exchange to a JSONL harness recording (`{t, kind: meta|req|res}`, each invoke\'s reverse requests as `kind: "reverse"` lines) for `executa test --fixtures`; each run appends a session of its own (a `meta` line), so one-shots can be recorded one after the other; the mock host\'s clock, ids and URLs are the same in the replay (see [recording and replaying](#recording-and-replaying)); progress notifications are kept as `{t, kind: "progress", invoke_id, type, data}` (read, not replayed)',
      value: "<file>",
      type: "string",
      describe: "Append every exchange to this JSONL file, for `executa test --fixtures`",
    },
    ...MOCK_HOST_OPTIONS,
    ...CREDENTIAL_OPTIONS,
  },
  examples: [
    ["$0 dev", "a REPL on the plugin in this folder"],
    ['$0 dev --invoke text_stats --args \'{"text": "a b a"}\' --json', "one invoke, JSON out"],
    ["$0 dev --watch --record fixtures/session.jsonl", "restart on change and record a transcript"],
  ],
  async run(args) {
    const launch = await launchFrom(args);
    const dir = resolve(args.dir);
    const oneShot = args.describe || args.invoke !== undefined || args.health;
    if (args.args !== undefined && args.invoke === undefined)
      throw new ExecutaError("--args needs --invoke <tool>", {
        hint: `e.g. executa dev --invoke text_stats --args '{"text": "hi"}'`,
      });
    const log = (line: string) => process.stderr.write(color.dim(printable(line)) + "\n");
    const { Workbench, runRepl, watchSources } = await import("../workbench/index.js");
    const beforeRestart = args.watch ? await manifestRegenerator(dir, log) : undefined;
    const mockHost = await mockHostOptionsFrom(args);
    const workbench = new Workbench(launch, {
      mockHost,
      ...(args.record && { record: resolve(args.record) }),
      credentials: credentialsFrom(args),
      log,
      ...(beforeRestart && { beforeRestart }),
    });
    try {
      try {
        await workbench.start();
      } catch (error) {
        // Compile and type errors already say where they are and how to fix them.
        if (error instanceof ExecutaError) throw error;
        const tail = workbench.session?.stderr.trim().split("\n").slice(-3).join(" / ");
        throw new ExecutaError(
          `the plugin did not start: ${(error as Error).message}${tail ? ` (stderr: ${tail.slice(0, 300)})` : ""}`,
          { hint: `started as: ${[launch.command, ...launch.args].join(" ").slice(0, 200)} (${launch.source})` },
        );
      }
      if (oneShot) {
        const what = args.invoke !== undefined ? `the invoke of ${args.invoke}` : args.health ? "health" : "describe";
        const r = await oneShotAnswer(what, workbench, () =>
          args.invoke !== undefined
            ? workbench.invoke(args.invoke, parseArgs(args.args))
            : args.health
              ? workbench.health()
              : workbench.describe(),
        );
        const answer = "error" in r.frame ? { error: r.frame.error } : r.frame.result;
        const exit = exitFor(r, args.invoke !== undefined);
        const mock = unusedRulesReport(mockHost);
        if (args.json) printJson(exit === ExitCode.Ok ? "ok" : "failed", { answer, ...(mock && { mock }) });
        else process.stdout.write(printable(JSON.stringify(answer, null, 2)) + "\n");
        warnUnusedRules(mock, log);
        return exit;
      }
      const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
      const watcher = args.watch
        ? watchSources(
            dir,
            (files) => {
              log(`changed: ${files.slice(0, 3).join(", ")}${files.length > 3 ? " …" : ""}; restarting`);
              workbench.restart().then(
                () => log(`restarted; ${workbench.tools.length} tool(s)`),
                (error: Error) => log(`restart failed: ${error.message}`),
              );
            },
            { ignore: beforeRestart ? GENERATED_FILES : [] },
          )
        : undefined;
      if (watcher) log(`watching ${dir} (${watcher.mode})`);
      try {
        await runRepl(workbench, {
          input: process.stdin,
          output: process.stdout,
          terminal,
          historyFile: join(homedir(), ".executa", "dev_history"),
        });
      } finally {
        watcher?.close();
        warnUnusedRules(unusedRulesReport(mockHost), log);
      }
      return ExitCode.Ok;
    } finally {
      await workbench.close();
    }
  },
});
