/**
 * Stopping: on stdin EOF, `shutdown`, SIGTERM, SIGHUP or SIGINT, answer new requests "Shutting
 * down", let in-flight invokes finish within the grace period, flush stdout, exit 0. A second
 * signal exits at once.
 */

export const GRACE_MS = 3_000;
/** How long the exit waits for stdout to take the last frames (a host that stopped reading never does). */
const FLUSH_MS = 500;

export class Stopper {
  /** True once stopping began: new requests are answered "Shutting down". */
  stopping = false;
  private inFlight = 0;
  private exiting = false;

  constructor(
    private readonly log: (message: string) => void,
    private readonly graceMs = GRACE_MS,
  ) {}

  get running(): number {
    return this.inFlight;
  }

  /** Installs the SIGTERM / SIGHUP / SIGINT handlers. */
  handleSignals(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stopping) {
        this.log(`executa: second ${signal}, exiting now`);
        process.exit(0);
      }
      this.begin(signal);
    };
    for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) process.on(signal, onSignal);
  }

  started(): void {
    this.inFlight++;
  }

  finished(): void {
    this.inFlight--;
    if (this.stopping && this.inFlight === 0) this.exit();
  }

  /** Begin stopping; exits when the in-flight invokes are done or the grace period is over. */
  begin(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    if (this.inFlight === 0) {
      this.exit();
      return;
    }
    this.log(`executa: ${reason}: waiting up to ${this.graceMs} ms for ${this.inFlight} invoke(s)`);
    setTimeout(() => {
      this.log(`executa: grace period over with ${this.inFlight} invoke(s) unanswered`);
      this.exit();
    }, this.graceMs);
  }

  /** Flush stdout (for at most FLUSH_MS), then exit 0. */
  private exit(): void {
    if (this.exiting) return;
    this.exiting = true;
    const stdout = process.stdout;
    if (stdout.writableLength === 0) process.exit(0);
    stdout.once("drain", () => process.exit(0));
    setTimeout(() => process.exit(0), FLUSH_MS).unref();
  }
}
