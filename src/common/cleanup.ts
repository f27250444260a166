/**
 * Nothing temporary outlives the process: every temp file or folder we make is registered here
 * and removed on exit, and on SIGINT, SIGTERM or SIGHUP, after the exit actions (stopping the
 * programs we started) ran. Then the process dies of the signal, as it would have without us,
 * unless someone else handles the signal (they exit, and the exit hook cleans up).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const EXIT_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const actions = new Set<() => void>();
const paths = new Set<string>();
let hooked = false;

function cleanUp(): void {
  for (const action of [...actions]) {
    try {
      action();
    } catch {
      // the others still run
    }
  }
  actions.clear();
  for (const path of paths) rmSync(path, { recursive: true, force: true, maxRetries: 2 });
  paths.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  cleanUp();
  for (const s of EXIT_SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", cleanUp);
  for (const s of EXIT_SIGNALS) process.on(s, onSignal);
}

/** Runs `action` when the process exits or is stopped by a signal; returns the function that cancels it. */
export function onExit(action: () => void): () => void {
  hook();
  actions.add(action);
  return () => actions.delete(action);
}

/** Removes `path` (file or folder) when the process exits or is stopped by a signal, unless removed or kept first. */
export function removeOnExit(path: string): string {
  hook();
  paths.add(path);
  return path;
}

/** Removes a registered path now. */
export function removeNow(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 2 });
  paths.delete(path);
}

/** Keeps a registered path after all (it became an output). */
export function keep(path: string): void {
  paths.delete(path);
}

/** A new folder under the system's temp folder, named `<prefix>XXXXXX`, removed on exit unless removed or kept first. */
export function makeTempDir(prefix: string): string {
  hook(); // before the folder exists: a signal that comes in between must find the handler in place
  return removeOnExit(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * One turn of the event loop: a signal that came during synchronous work is handled here (the
 * process cleans up and dies of it) instead of after all the work that follows.
 */
export function handleSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
