/** `executa inspect`: the web workbench. Serves a page on 127.0.0.1 until Ctrl-C. */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color, printable } from "../common/term.js";
import { defineCommand, jsonOption } from "./command.js";
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
import { printJson } from "./run.js";
import type { InspectServer, OpenerFile } from "../workbench/index.js";

/**
 * Opens the page in the desktop's browser through a file that forwards to a fresh one-time link
 * (the opener's arguments are readable by every local user); a failure is only a warning.
 */
function openBrowser(
  server: InspectServer,
  writeOpenerFile: (link: string) => OpenerFile,
  warn: (line: string) => void,
): () => void {
  let opener: OpenerFile | undefined;
  const link = server.newLink(() => opener?.remove());
  opener = writeOpenerFile(link);
  const url = opener.url;
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command as string, args as string[], { stdio: "ignore", detached: true });
    child.on("error", (error) =>
      warn(`executa: warning: could not open a browser (${error.message}); open the URL yourself`),
    );
    child.unref();
  } catch (error) {
    warn(`executa: warning: could not open a browser (${(error as Error).message}); open the URL yourself`);
  }
  return opener.remove;
}

/** Resolves at the first Ctrl-C or SIGTERM; the listeners stay until `release`, so a second one does not kill the shutdown. */
function untilInterrupted(): { signal: Promise<NodeJS.Signals>; release(): void } {
  let done: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => (done = resolve));
  process.on("SIGINT", done);
  process.on("SIGTERM", done);
  return { signal, release: () => (process.off("SIGINT", done), process.off("SIGTERM", done)) };
}

export const inspectCommand = defineCommand({
  command: "inspect [dir]",
  describe:
    "The web workbench: a page on 127.0.0.1 with a form per tool, results, the full trace, the mock host's controls, conformance and fixture export",
  usage: `$0 inspect ${PLUGIN_USAGE}\n\nStarts the plugin like \`executa dev\` and serves a web page for it on 127.0.0.1. The printed link works once, for a few minutes: the page it opens gets an HttpOnly cookie, and a visit without one makes a fresh link appear in the terminal. Ctrl-C stops the plugin and the server.`,
  dashDash: "start the plugin with this command instead of the one detected from the folder, run in `dir`",
  untilInterrupted: true,
  options: {
    port: {
      value: "<n>",
      type: "number",
      default: 0,
      describe: "Serve on this port of 127.0.0.1 (default: a free one)",
    },
    open: {
      doc: "open the page in the desktop's browser (through a file only you can read, so no link is on the opener's command line)",
      type: "boolean",
      default: false,
      describe: "Open the page in the desktop's browser",
    },
    watch: {
      type: "boolean",
      default: false,
      describe:
        "Regenerate the manifest and restart the plugin when its sources change (the page shows a banner meanwhile)",
    },
    ...MOCK_HOST_OPTIONS,
    ...CREDENTIAL_OPTIONS,
    ...jsonOption("print one object `{status, url, port, launch}` on stdout once the page is served"),
  },
  examples: [
    ["$0 inspect", "serve the workbench for the plugin in this folder; open the URL it prints"],
    [
      "$0 inspect --watch --sampling echo --credential SIGNING_SECRET",
      "restart on change, echo sampling, one credential from $SIGNING_SECRET",
    ],
  ],
  async run(args) {
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
      throw new ExecutaError(`--port must be a port number from 0 to 65535, got ${args.port}`, {
        hint: "e.g. --port 7777, or leave it out for a free one",
      });
    // Listening from the start: a Ctrl-C while the plugin starts stops it as soon as it can.
    const interrupt = untilInterrupted();
    try {
      const launch = await launchFrom(args);
      const dir = resolve(args.dir);
      const credentials = credentialsFrom(args);
      const log = (line: string) => process.stderr.write(color.dim(printable(line)) + "\n");
      const mockHost = await mockHostOptionsFrom(args);
      const beforeRestart = args.watch ? await manifestRegenerator(dir, log) : undefined;
      const rulesSource = [
        ...(args.mock ?? []).map((f) => `--mock ${f}`),
        ...(args.sampling?.startsWith("rules:") || args.sampling?.endsWith(".jsonl")
          ? [`--sampling ${args.sampling}`]
          : []),
      ].join(", ");
      const { startInspect, writeOpenerFile } = await import("../workbench/index.js");
      const running = await startInspect({
        launch,
        mockHost,
        ...(rulesSource && { rulesSource }),
        credentials,
        log,
        port: args.port,
        ...(beforeRestart && { beforeRestart }),
        ...(args.watch && { watch: { dir, ignore: beforeRestart ? GENERATED_FILES : [] } }),
      });
      const { url, port } = running.server;
      if (args.json)
        printJson("ok", {
          url,
          port,
          launch: { command: launch.command, args: launch.args, cwd: launch.cwd, source: launch.source },
        });
      else {
        process.stdout.write(`${url}\n`);
        log(
          `executa inspect: serving on 127.0.0.1:${port}; the link above works once, for a few minutes (a fresh one appears here when needed)`,
        );
        log(`plugin: ${[launch.command, ...launch.args].join(" ").slice(0, 160)} (${launch.source})`);
        if (running.watcher) log(`watching ${dir} (${running.watcher.mode})`);
        log("Ctrl-C stops the plugin and the server");
      }
      const removeOpener = args.open ? openBrowser(running.server, writeOpenerFile, log) : undefined;
      const signal = await interrupt.signal;
      log(`${signal === "SIGINT" ? "interrupted" : signal}: stopping the plugin and the server`);
      removeOpener?.();
      await running.close();
      warnUnusedRules(unusedRulesReport(mockHost), log);
      return ExitCode.Ok;
    } finally {
      interrupt.release();
    }
  },
});
