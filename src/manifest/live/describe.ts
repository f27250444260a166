/**
 * Starts any plugin, sends `describe` and returns its manifest, on the host's session: the plugin
 * runs in its own temp folder and process group, and a file-transport answer is read only by the
 * host's safe rules.
 */
import { ExecutaError } from "../../common/errors.js";
import { describeExit, errorLine, PluginExited, Session, type Response } from "../../host/index.js";
import { Timeouts } from "../../protocol/index.js";

export interface LiveDescribe {
  manifest: unknown;
  /** What the plugin wrote on stderr meanwhile (its logs). */
  stderr: string;
}

const START_HINT =
  "pass the plugin's launch command after --, e.g. `executa manifest --from-plugin -- node dist/main.js`";

export async function describePlugin(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; shown?: string } = {},
): Promise<LiveDescribe> {
  const timeoutMs = options.timeoutMs ?? Timeouts.describeMs;
  const shown = options.shown ?? [command, ...args].join(" ");
  const session = new Session(
    { command, args: [...args], ...(options.cwd && { cwd: options.cwd }), ...(options.env && { env: options.env }) },
    { recordChars: 500 },
  );
  try {
    let r: Response;
    try {
      r = await session.describe(timeoutMs);
    } catch (error) {
      const said = errorLine(session.stderr);
      if (error instanceof PluginExited && error.spawnError) {
        const code = (error.spawnError as NodeJS.ErrnoException).code;
        throw new ExecutaError(
          `cannot start ${shown}: ${code === "ENOENT" ? "command not found" : error.spawnError.message}`,
          { hint: START_HINT },
        );
      }
      if (error instanceof PluginExited) {
        throw new ExecutaError(`${shown} exited (${describeExit(error.exit)}) before answering describe`, {
          hint: said ? `the plugin said: ${said}` : "it wrote nothing on stderr; run it by hand to see why",
        });
      }
      throw new ExecutaError(`${shown} did not answer describe within ${timeoutMs / 1000} s`, {
        hint: `check that the plugin reads JSON-RPC lines from stdin and flushes stdout${said ? `; its stderr: ${said}` : ""}`,
      });
    }
    if (r.file?.error)
      throw new ExecutaError(
        `${shown} answered describe by file transport, and the host could not accept it: ${r.file.error}`,
        {
          hint: "write the response file with a name starting executa- directly in the temp folder the plugin gets (TMPDIR)",
        },
      );
    if ("error" in r.frame) {
      const e = r.frame.error as { code?: unknown; message?: unknown } | undefined;
      throw new ExecutaError(`${shown} answered describe with error ${String(e?.code)}: ${String(e?.message)}`, {
        hint: "describe must answer the manifest itself",
      });
    }
    return { manifest: r.frame.result, stderr: session.stderr };
  } finally {
    await session.dispose();
  }
}
