/** Tasks that run one per turn of the event loop, and none while `blocked()`: the reading's own rule. */
export class TurnQueue {
  private readonly tasks: (() => void)[] = [];
  private scheduled = false;

  constructor(private readonly blocked: () => boolean) {}

  add(task: () => void): void {
    this.tasks.push(task);
    this.resume();
  }

  /** Runs what waits, from the next turn on; call it when `blocked()` may have cleared. */
  resume(): void {
    if (this.scheduled || this.tasks.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.blocked()) return;
      this.tasks.shift()!();
      this.resume();
    });
  }
}
