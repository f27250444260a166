/**
 * What ends the plugins when executa itself dies abruptly (SIGKILL, a crash, an OOM kill): one
 * small detached process per executa, started before its first plugin, holds the read end of a
 * pipe from executa. When the pipe closes (executa is gone, however it went, or it exited) the
 * watchdog SIGKILLs every process whose environment carries this executa's session mark (each
 * plugin and everything it started inherits it, even after leaving the process group), a few
 * times over to catch late forks, then exits. Linux only: it reads /proc. A process that scrubs its
 * environment escapes it; PR_SET_CHILD_SUBREAPER, which would not, needs native code.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";

/** The part of every session mark this executa process makes. */
export const PROCESS_MARK = randomBytes(8).toString("hex");

const SWEEPS = 5;
const SWEEP_GAP_MS = 200;

/** Runs as `node -e`: argv[1] the environment entry to look for (`NAME=<process mark>.`). */
const WATCHDOG = `
const { readdirSync, readFileSync } = require("node:fs");
const needle = "\\0" + process.argv[1];
const sweep = () => {
  for (const entry of readdirSync("/proc")) {
    if (!/^\\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (("\\0" + readFileSync("/proc/" + entry + "/environ", "latin1")).includes(needle)) process.kill(Number(entry), "SIGKILL");
    } catch {}
  }
};
let left = ${SWEEPS};
const again = () => (sweep(), --left > 0 ? setTimeout(again, ${SWEEP_GAP_MS}) : process.exit(0));
process.stdin.on("data", () => {}).on("close", again).on("error", again);
`;

let started = false;

/** Starts the watchdog once per executa process (Linux only); `variable` is the session mark's name. */
export function ensureWatchdog(variable: string): void {
  if (started || process.platform !== "linux") return;
  started = true;
  const { [variable]: _own, ...env } = process.env;
  try {
    const child = spawn(process.execPath, ["-e", WATCHDOG, `${variable}=${PROCESS_MARK}.`], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env,
    });
    child.on("error", () => undefined);
    (child.stdin as Socket).on("error", () => undefined).unref();
    child.unref();
  } catch {
    // Without a watchdog, plugins are still ended when executa exits by itself.
  }
}
