/** How far a conformance run has got: checks done of all, and the running ones with the tool each is at. */

interface Running {
  id: string;
  tool?: { at: number; of: number };
}

export class RunProgress {
  private total = 0;
  private done = 0;
  private readonly running = new Map<string, Running>();

  /** The run will run `total` checks. */
  planned(total: number): void {
    this.total = total;
  }

  started(id: string): void {
    this.running.set(id, { id });
  }

  /** The check is at tool `at` (1-based) of `of`. */
  atTool(id: string, at: number, of: number): void {
    const check = this.running.get(id);
    if (check) check.tool = { at, of };
  }

  finished(id: string): void {
    if (this.running.delete(id)) this.done++;
  }

  /** One line, e.g. "check 12/27: invoke.envelope (tool 40/200), health"; empty before the checks start. */
  line(): string {
    if (this.total === 0) return "";
    const running = [...this.running.values()].map((r) => (r.tool ? `${r.id} (tool ${r.tool.at}/${r.tool.of})` : r.id));
    const count = `check ${Math.min(this.done + 1, this.total)}/${this.total}`;
    return running.length ? `${count}: ${running.join(", ")}` : count;
  }
}
