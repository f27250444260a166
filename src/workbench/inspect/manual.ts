/**
 * Sampling answered by hand: each request the model would answer waits here, shown in the page,
 * until the author types the answer (or an error), or its plugin session ends.
 */
import type { ManualReply, ManualRequest } from "../../host/index.js";
import { RpcError } from "../../protocol/index.js";
import type { PendingManual } from "./wire.js";

interface Waiting {
  view: PendingManual;
  resolve: (reply: ManualReply) => void;
}

export class ManualQueue {
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly onChange: (pending: PendingManual[]) => void,
    private readonly redact: <T>(value: T) => T,
    private readonly started = performance.now(),
  ) {}

  get pending(): PendingManual[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  /** The sampling mode's answer function: a promise the author settles from the page. */
  ask(request: ManualRequest, session: number): Promise<ManualReply> {
    return new Promise((resolve) => {
      const r = request.record;
      const view: PendingManual = {
        seq: r.seq,
        session,
        method: request.method,
        ...((r.routedTo ?? r.invokeId) !== undefined && { invokeId: r.routedTo ?? r.invokeId }),
        prompt: this.redact(request.prompt),
        params: this.redact(request.params),
        t: Math.round(performance.now() - this.started),
      };
      this.waiting.set(r.seq, { view, resolve });
      this.onChange(this.pending);
    });
  }

  /** Settles one request; false when it is no longer waiting. */
  answer(seq: number, reply: ManualReply): boolean {
    const w = this.waiting.get(seq);
    if (!w) return false;
    this.waiting.delete(seq);
    w.resolve(reply);
    this.onChange(this.pending);
    return true;
  }

  /** The session ended: its requests can never be answered to it. */
  drop(session: number, why: string): void {
    let changed = false;
    for (const [seq, w] of this.waiting) {
      if (w.view.session !== session) continue;
      this.waiting.delete(seq);
      w.resolve({ error: { code: RpcError.InternalError, message: why } });
      changed = true;
    }
    if (changed) this.onChange(this.pending);
  }
}
