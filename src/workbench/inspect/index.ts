/** `executa inspect`: the plugin behind the mock host, served as a web workbench on 127.0.0.1. */
import { watchSources, type SourceWatcher } from "../watch.js";
import { Inspector, type InspectorOptions } from "./inspector.js";
import { startServer, type InspectServer } from "./server.js";

export { Inspector, type InspectorOptions } from "./inspector.js";
export { writeOpenerFile, type OpenerFile } from "./opener.js";
export type { InspectServer } from "./server.js";
export type * from "./wire.js";

export interface InspectOptions extends InspectorOptions {
  /** 0: a free port. */
  port: number;
  /** `--watch`: this folder's sources; generated files the restart writes itself are ignored. */
  watch?: { dir: string; ignore: string[] };
}

export interface RunningInspect {
  inspector: Inspector;
  server: InspectServer;
  watcher: SourceWatcher | undefined;
  /** Resolves once the plugin's first start is over (ready or failed; the page shows which). */
  started: Promise<void>;
  close(): Promise<void>;
}

/** Serves first (the page can show the plugin starting), then starts the plugin and, with `watch`, the watcher. */
export async function startInspect(options: InspectOptions): Promise<RunningInspect> {
  const inspector = new Inspector(options);
  let server: InspectServer;
  try {
    server = await startServer(inspector, options.port, {
      printLink: (url) =>
        options.log?.(
          `executa inspect: a visit came without a live link; open this fresh one (it works once, for a few minutes): ${url}`,
        ),
    });
  } catch (error) {
    await inspector.close();
    throw error;
  }
  const started = inspector.start();
  let watcher: SourceWatcher | undefined;
  if (options.watch) {
    let restarting = Promise.resolve();
    watcher = watchSources(
      options.watch.dir,
      (files) => {
        inspector.watch = { state: "rebuilding", files };
        restarting = restarting.then(async () => {
          await inspector.restart();
          const plugin = inspector.state().plugin;
          inspector.watch =
            plugin.status === "ready"
              ? { state: "watching" }
              : { state: "failed", message: plugin.message ?? "the restart failed" };
        });
      },
      { ignore: options.watch.ignore },
    );
    inspector.watch = { state: "watching" };
  }
  let closing: Promise<void> | undefined;
  return {
    inspector,
    server,
    watcher,
    started,
    close: () =>
      (closing ??= (async () => {
        watcher?.close();
        await server.close();
        await inspector.close();
      })()),
  };
}
