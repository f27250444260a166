/** `executa dev`: the workbench. A REPL by default; one-shots (--describe, --invoke) for scripts. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { CommandModule } from "yargs";
import { rebuildStep, runRepl, samplingModeFrom, watchSources, Workbench, type Response } from "../host/index.js";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color } from "../common/term.js";
import { launchFrom } from "./test.js";
import { runCommand } from "./run.js";

interface DevArgs {
  dir: string;
  describe: boolean;
  invoke?: string;
  args?: string;
  health: boolean;
  json: boolean;
  watch: boolean;
  record?: string;
  sampling?: string;
  storage?: string;
  credential?: string[];
  _: (string | number)[];
  "--"?: string[];
}

function credentialsFrom(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const eq = v.indexOf("=");
    if (eq <= 0) throw new ExecutaError(`--credential takes NAME=VALUE, got ${JSON.stringify(v)}`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ExecutaError(`--args is not JSON: ${(error as Error).message}`, { hint: `quote it for the shell: --args '{"text": "hi"}'` });
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ExecutaError("--args must be a JSON object", { hint: `e.g. --args '{"text": "hi"}'` });
  return value as Record<string, unknown>;
}

/** 0 when the answer is a result (and, for invoke, success true); 1 otherwise. */
function exitFor(r: Response, invoke: boolean): number {
  if ("error" in r.frame) return ExitCode.Failed;
  if (invoke && (r.frame.result as { success?: unknown } | undefined)?.success !== true) return ExitCode.Failed;
  return ExitCode.Ok;
}

export const devCommand: CommandModule<object, DevArgs> = {
  command: "dev",
  describe: "The workbench: a REPL on a running plugin (describe, invoke, health, trace, restart), or one-shots for scripts",
  builder: (y) =>
    y
      .usage("$0 dev [options] [-- <command> [args...]]\n\nStarts the plugin (detected from its folder, or the command after --) behind a mock host that answers its reverse requests.")
      .option("dir", { type: "string", default: ".", describe: "The plugin's folder (launch detection and working directory)" })
      .option("describe", { type: "boolean", default: false, describe: "One-shot: print the manifest the plugin serves, then stop" })
      .option("invoke", { type: "string", describe: "One-shot: invoke this tool (with --args), print the result, then stop" })
      .option("args", { type: "string", describe: "The JSON arguments for --invoke, e.g. '{\"text\": \"hi\"}'" })
      .option("health", { type: "boolean", default: false, describe: "One-shot: print the plugin's health, then stop" })
      .option("json", { type: "boolean", default: false, describe: "One-shots: print only the JSON answer on stdout (events go to stderr)" })
      .option("watch", { type: "boolean", default: false, describe: "Restart the plugin when its sources change (TS recompiles with npm run compile; Go rebuilds)" })
      .option("record", { type: "string", describe: "Append every exchange to this JSONL file, for `executa test --fixtures`" })
      .option("sampling", { type: "string", describe: "How the mock host answers sampling: a canned reply text, 'echo', or 'rules:FILE.jsonl'" })
      .option("storage", { type: "string", describe: "Keep the mock host's storage and uploads in this folder instead of memory" })
      .option("credential", { type: "string", array: true, describe: "NAME=VALUE passed in every invoke's context.credentials (repeatable)" })
      .example("$0 dev", "a REPL on the plugin in this folder")
      .example("$0 dev --invoke text_stats --args '{\"text\": \"a b a\"}' --json", "one invoke, JSON out")
      .example("$0 dev --watch --record fixtures/session.jsonl", "restart on change and record a transcript") as never,
  handler: (argv) =>
    runCommand(async () => {
      const launch = await launchFrom(argv);
      const dir = resolve(argv.dir);
      const oneShot = argv.describe || argv.invoke !== undefined || argv.health;
      if (argv.args !== undefined && argv.invoke === undefined) throw new ExecutaError("--args needs --invoke <tool>");
      const quietLog = (line: string) => process.stderr.write(color.dim(line) + "\n");
      const rebuild = argv.watch ? rebuildStep(dir, launch.language) : undefined;
      const workbench = new Workbench(launch, {
        mockHost: { sampling: samplingModeFrom(argv.sampling), ...(argv.storage && { storageDir: resolve(argv.storage) }) },
        ...(argv.record && { record: resolve(argv.record) }),
        credentials: credentialsFrom(argv.credential),
        log: quietLog,
        ...(rebuild && { rebuild }),
      });
      try {
        try {
          await workbench.start();
        } catch (error) {
          const tail = workbench.session?.stderr.trim().split("\n").slice(-3).join(" / ");
          throw new ExecutaError(`the plugin did not start: ${(error as Error).message}${tail ? ` (stderr: ${tail.slice(0, 300)})` : ""}`, { hint: `started as: ${[launch.command, ...launch.args].join(" ").slice(0, 200)} (${launch.source})` });
        }
        if (oneShot) {
          let r: Response;
          if (argv.invoke !== undefined) r = await workbench.invoke(argv.invoke, parseArgs(argv.args));
          else if (argv.health) r = await workbench.health();
          else r = await workbench.describe();
          const body = "error" in r.frame ? { error: r.frame.error } : r.frame.result;
          process.stdout.write((argv.json ? JSON.stringify(body) : JSON.stringify(body, null, 2)) + "\n");
          return exitFor(r, argv.invoke !== undefined);
        }
        const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
        const watcher = argv.watch
          ? watchSources(dir, (files) => {
              quietLog(`changed: ${files.slice(0, 3).join(", ")}${files.length > 3 ? " …" : ""}; restarting`);
              workbench.restart().then(
                () => quietLog(`restarted; ${workbench.tools.length} tool(s)`),
                (error: Error) => quietLog(`restart failed: ${error.message}`),
              );
            })
          : undefined;
        if (watcher) quietLog(`watching ${dir} (${watcher.mode})`);
        try {
          await runRepl(workbench, { input: process.stdin, output: process.stdout, terminal, historyFile: join(homedir(), ".executa", "dev_history") });
        } finally {
          watcher?.close();
        }
        return ExitCode.Ok;
      } finally {
        await workbench.close();
      }
    }),
};
