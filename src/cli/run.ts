/** How every command ends: an exit code, one clear line for errors, and with --json one object on stdout. */
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color, printable } from "../common/term.js";

export type JsonStatus = "ok" | "failed" | "error";

export function printError(message: string, hint?: string): void {
  process.stderr.write(`${color.red("executa: error:")} ${printable(message)}\n`);
  if (hint) process.stderr.write(`${color.dim("hint:")} ${printable(hint)}\n`);
}

/** The one JSON object a command prints with --json: `status` first, then the command's own keys. */
export function printJson(status: JsonStatus, body: object = {}): void {
  // The command's status comes first and wins over a `status` member of the body (a core's own outcome).
  process.stdout.write(JSON.stringify({ ...{ status }, ...body, status }) + "\n");
}

/** The --json error object, for errors that stop a command before it could run. */
export function printJsonError(message: string, hint?: string): void {
  printJson("error", { error: { message, ...(hint && { hint }) } });
}

/** A reader that stops early (`executa upgrade --diff | head`) ends the output, not the command with a stack trace. */
export function endQuietlyOnClosedPipe(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? ExitCode.Ok);
  });
}

/** Runs a command handler and sets the exit code; unexpected errors print their stack. */
export async function runCommand(handler: () => Promise<number | void>, json = false): Promise<void> {
  try {
    process.exitCode = (await handler()) ?? ExitCode.Ok;
  } catch (error) {
    const known = error instanceof ExecutaError;
    const message = known
      ? error.message
      : `unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    const hint = known ? error.hint : "this is a bug in create-executa; please report it with the command you ran";
    printError(message, hint);
    if (json) printJsonError(known ? message : message.split("\n")[0]!, hint);
    process.exitCode = known ? error.exitCode : ExitCode.CannotRun;
  }
}
