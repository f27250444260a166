/** Spawns any plugin, sends `describe`, and returns its manifest (a small reader, not the host simulator). */
import { spawn } from "node:child_process";
import { readFileSync, unlinkSync } from "node:fs";
import { ExecutaError } from "../../common/errors.js";
import { FILE_TRANSPORT_KEY, Timeouts } from "../../protocol/index.js";

export interface LiveDescribe {
  manifest: unknown;
  /** What the plugin wrote on stderr meanwhile (its logs). */
  stderr: string;
}

export function describePlugin(command: string, args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<LiveDescribe> {
  const timeoutMs = options.timeoutMs ?? Timeouts.describeMs;
  const shown = [command, ...args].join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (error: Error | undefined, manifest?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      // Give the plugin its EOF; stop it if it lingers.
      const kill = setTimeout(() => child.kill("SIGKILL"), Timeouts.sigtermGraceMs);
      kill.unref();
      child.once("exit", () => clearTimeout(kill));
      if (error) reject(error);
      else resolve({ manifest, stderr });
    };
    const timer = setTimeout(
      () => finish(new ExecutaError(`${shown} did not answer describe within ${timeoutMs / 1000} s`, { hint: "check that the plugin reads JSON-RPC from stdin; its stderr: " + stderr.trim().slice(-300) })),
      timeoutMs,
    );
    child.on("error", (error: NodeJS.ErrnoException) =>
      finish(new ExecutaError(`cannot start ${shown}: ${error.code === "ENOENT" ? "command not found" : error.message}`, { hint: "pass the plugin's launch command after --, e.g. `executa manifest --from-plugin -- node dist/main.js`" })),
    );
    child.on("exit", (code) => {
      setImmediate(() => finish(new ExecutaError(`${shown} exited (code ${code}) before answering describe`, { hint: stderr.trim().split("\n").slice(-3).join(" | ") || undefined })));
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      let nl: number;
      while ((nl = stdout.indexOf("\n")) !== -1) {
        const line = stdout.slice(0, nl).trim();
        stdout = stdout.slice(nl + 1);
        if (!line) continue;
        let frame: Record<string, unknown>;
        try {
          frame = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue; // tolerated, as the spec says; conformance checks report it
        }
        if (frame.id !== "describe") continue;
        if (typeof frame[FILE_TRANSPORT_KEY] === "string") {
          const path = frame[FILE_TRANSPORT_KEY];
          try {
            frame = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
            unlinkSync(path);
          } catch (error) {
            finish(new ExecutaError(`cannot read the describe response from ${path}: ${(error as Error).message}`));
            return;
          }
        }
        if (frame.error) {
          const e = frame.error as { code?: number; message?: string };
          finish(new ExecutaError(`${shown} answered describe with error ${e.code}: ${e.message}`));
          return;
        }
        finish(undefined, frame.result);
        return;
      }
    });
    child.stdin.on("error", () => undefined);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: "describe", method: "describe", params: {} }) + "\n");
  });
}
