/**
 * Every process a plugin started, even one that left its process group (`setsid`, a detached
 * spawn): while the plugin runs, the process table is read a few times a second and each new
 * descendant (by parent) is remembered with its start time, so that it can still be found, and
 * ended, after the plugin exits and it is re-parented. The plugin's environment also carries a
 * random mark (SESSION_MARK_VARIABLE) that its descendants inherit, which finds the ones started
 * and orphaned between two looks. Linux reads /proc; elsewhere nothing is tracked and only the
 * process group is ended. If executa dies without ending a session, its watchdog (watchdog.ts)
 * ends every process carrying its mark.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { ensureWatchdog, PROCESS_MARK } from "./watchdog.js";

export const SESSION_MARK_VARIABLE = "EXECUTA_HOST_SESSION";

interface Proc {
  pid: number;
  ppid: number;
  start: string;
  name: string;
  /** Z: dead, not yet reaped by its (new) parent. */
  state: string;
}

const TRACKED = process.platform === "linux";
const POLL_MS = 100;
const trackers = new Set<DescendantTracker>();
let timer: NodeJS.Timeout | undefined;

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return {
      pid,
      ppid: Number(fields[1]),
      start: fields[19]!,
      name: stat.slice(stat.indexOf("(") + 1, close),
      state: fields[0]!,
    };
  } catch {
    return undefined;
  }
}

function processTable(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const p = readProc(Number(entry));
    if (p) out.push(p);
  }
  return out;
}

function pollAll(): void {
  if (trackers.size === 0) return;
  const table = processTable();
  for (const tracker of trackers) tracker.update(table);
}

export class DescendantTracker {
  /** Descendants seen so far, by pid, with the start time that tells a reused pid apart. */
  private readonly known = new Map<number, Proc>();
  private rootPid: number | undefined;
  /** Put into the plugin's environment as SESSION_MARK_VARIABLE: this executa's mark (what its watchdog looks for), then the session's. */
  readonly mark = `${PROCESS_MARK}.${randomBytes(12).toString("hex")}`;

  constructor() {
    ensureWatchdog(SESSION_MARK_VARIABLE);
  }

  /** Starts watching the plugin's process. */
  watch(rootPid: number | undefined): void {
    if (!TRACKED || rootPid === undefined) return;
    this.rootPid = rootPid;
    trackers.add(this);
    timer ??= setInterval(pollAll, POLL_MS).unref();
  }

  private marked(pid: number): boolean {
    try {
      return readFileSync(`/proc/${pid}/environ`, "latin1").includes(`\0${SESSION_MARK_VARIABLE}=${this.mark}\0`);
    } catch {
      return false;
    }
  }

  /** Remembers the root's descendants in `table` (children of the root or of one already known). */
  update(table: readonly Proc[]): void {
    const parents = new Set([this.rootPid, ...this.known.keys()]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of table) {
        if (!this.known.has(p.pid) && parents.has(p.ppid)) {
          this.known.set(p.pid, p);
          parents.add(p.pid);
          grew = true;
        }
      }
    }
  }

  /** Stops watching; returns the remembered descendants still running (same pid, same start time, not a zombie), by their name now (one may have exec'd since it was seen). */
  stop(): { pid: number; name: string }[] {
    if (!trackers.delete(this)) return [];
    if (trackers.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    const alive = new Map<number, { pid: number; name: string }>();
    for (const p of this.known.values()) {
      const now = readProc(p.pid);
      if (now && now.start === p.start && now.state !== "Z") alive.set(p.pid, { pid: p.pid, name: now.name });
    }
    for (const p of processTable())
      if (p.pid !== this.rootPid && p.pid !== process.pid && this.marked(p.pid))
        alive.set(p.pid, { pid: p.pid, name: p.name });
    return [...alive.values()];
  }

  /** One last look while the root still runs (so a child started just now is known too). */
  look(): void {
    if (trackers.has(this)) this.update(processTable());
  }
}

/** SIGKILLs the processes; the ones that were still there. */
export function killProcesses(processes: readonly { pid: number; name: string }[]): { pid: number; name: string }[] {
  return processes.filter((p) => {
    try {
      process.kill(p.pid, "SIGKILL");
      return true;
    } catch {
      return false;
    }
  });
}
