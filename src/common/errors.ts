/** Exit codes of every command. */
export const ExitCode = {
  Ok: 0,
  /** The check ran and found a problem (drift, a failed conformance check). */
  Failed: 1,
  /** The command could not run (usage, bad input, a missing tool). */
  CannotRun: 2,
} as const;

/**
 * An error the user can act on: printed as one line `executa: error: <message>` followed by the
 * hint, never with a stack trace.
 */
export class ExecutaError extends Error {
  readonly hint: string | undefined;
  readonly exitCode: number;

  constructor(message: string, options: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ExecutaError";
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ExitCode.CannotRun;
  }
}
