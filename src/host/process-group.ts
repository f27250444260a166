/**
 * A plugin runs in its own process group (POSIX), so that it and everything it started can be
 * stopped together: SIGTERM to the group, then SIGKILL. Groups still alive when this process
 * exits, or is stopped by a signal, are killed on the way out (before temp folders are removed).
 */
import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from "node:child_process";
import { onExit } from "../common/cleanup.js";

const POSIX = process.platform !== "win32";
const live = new Map<number, ChildProcessWithoutNullStreams>();
let hooked = false;

function killAll(): void {
  for (const [pid, child] of live) signalGroup(pid, child, "SIGKILL");
  live.clear();
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  onExit(killAll);
}

/** Spawns the plugin as the leader of a new process group (POSIX), with piped stdio. */
export function spawnInGroup(
  command: string,
  args: readonly string[],
  options: SpawnOptionsWithoutStdio,
): ChildProcessWithoutNullStreams {
  hook();
  const child = spawn(command, args, {
    ...options,
    stdio: ["pipe", "pipe", "pipe"],
    detached: POSIX,
    windowsHide: true,
  });
  if (child.pid !== undefined) live.set(child.pid, child);
  return child;
}

/** Sends a signal to the whole group (on Windows, to the process). False when nothing was there. */
export function signalGroup(
  pid: number | undefined,
  child: ChildProcessWithoutNullStreams,
  signal: NodeJS.Signals | 0,
): boolean {
  if (pid === undefined) return false;
  try {
    if (POSIX) process.kill(-pid, signal);
    else if (signal !== 0) return child.kill(signal);
    else return child.exitCode === null && child.signalCode === null;
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM to the whole group, then SIGKILL to whatever is left after `graceMs`; resolves when the group is gone. */
export async function endGroup(child: ChildProcessWithoutNullStreams, graceMs: number): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (signalGroup(pid, child, "SIGTERM")) {
    const until = performance.now() + graceMs;
    while (performance.now() < until && signalGroup(pid, child, 0)) await sleep(20);
    if (signalGroup(pid, child, "SIGKILL")) {
      for (let i = 0; i < 50 && signalGroup(pid, child, 0); i++) await sleep(20);
    }
  }
  live.delete(pid);
}
