/** Running other programs: capture their output, never a shell. */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { onExit } from "./cleanup.js";

export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started at all (e.g. ENOENT). */
  spawnError?: NodeJS.ErrnoException;
}

export function exec(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {},
): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    // Our own timer, cleared on every ending: spawn's `timeout` stays armed when the program
    // cannot start (ENOENT), which kept callers alive for the whole timeout.
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGTERM"), options.timeoutMs);
    // Stopped with us, so that it writes nothing into a temp folder after that folder is removed.
    const forget = onExit(() => child.kill("SIGTERM"));
    const settle = (result: ExecResult) => {
      forget();
      clearTimeout(timer);
      resolve(result);
    };
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    if (options.input !== undefined) child.stdin!.end(options.input);
    child.on("error", (error: NodeJS.ErrnoException) => settle({ code: null, stdout, stderr, spawnError: error }));
    child.on("close", (code) => settle({ code, stdout, stderr }));
  });
}

/** Every full path of a program on PATH, in PATH order. */
export function whichAll(program: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  const found: string[] = [];
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const candidate = join(dir, program + ext);
      try {
        accessSync(candidate, constants.X_OK);
        found.push(candidate);
      } catch {
        // not here
      }
    }
  }
  return found;
}

/** The full path of a program on PATH, or undefined. */
export function which(program: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return whichAll(program, env)[0];
}

/** The last few lines of a program's output, for an error message. */
export function tail(text: string, lines = 5): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}
