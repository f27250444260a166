/**
 * The ids the mock host makes (invoke ids, upload ids, URL paths, agent sessions, runs...): a
 * counter per kind, hashed with a seed. The same seed and the same requests give the same ids, so
 * a recorded session replays with the ids it was recorded with; the default seed is random.
 */
import { createHash, randomBytes } from "node:crypto";

export class IdSource {
  private readonly counters = new Map<string, number>();
  private readonly seed: string;

  constructor(seed?: string) {
    this.seed = seed ?? randomBytes(16).toString("hex");
  }

  /** The next id of this kind: 32 hex digits. */
  next(kind: string): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return createHash("sha256").update(`${this.seed}:${kind}:${n}`).digest("hex").slice(0, 32);
  }
}
