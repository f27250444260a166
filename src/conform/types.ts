/** The shapes of the conformance suite: a check, what it found, the report. */
import type { CheckContext } from "./context.js";
import type { RunProgress } from "./progress.js";

/**
 * `fail`: a MUST of the protocol is broken (the rule is quoted). `warn`: advice (a TIP, SHOULD,
 * the reference's matrix) or a heuristic. `skip`: the behaviour could not be observed.
 */
export type CheckStatus = "pass" | "fail" | "warn" | "skip";

export interface CheckResult {
  id: string;
  description: string;
  status: CheckStatus;
  /** Fail or warn: what broke and the frames that show it. Skip: why. Pass: a note, if any. */
  message?: string;
  /** The rule: for a fail or warn, the text it broke; otherwise what the check enforces. */
  rule?: string;
  ms?: number;
}

export interface ConformanceReport {
  /** No failure (and, with `strict`, no warning). */
  passed: boolean;
  /** Warnings were turned into failures. */
  strict?: boolean;
  results: CheckResult[];
  /** Wall time of the whole suite. */
  ms?: number;
  /** The fuzz seed, when --fuzz ran. */
  seed?: number;
  /** Present when the per-tool checks exercised a sample of the tools: how many, of how many, picked by which seed. */
  toolSample?: { checked: number; of: number; seed: number };
}

export type Outcome =
  | { status: "pass"; note?: string }
  | { status: "fail"; message: string; rule?: string }
  | { status: "warn"; message: string; rule?: string }
  | { status: "skip"; reason: string };

/** What a check needs from the probe session before it can say anything. */
export type Prerequisite = "alive" | "manifest" | "tools";

export interface Check {
  id: string;
  description: string;
  rule: string;
  needs: Prerequisite[];
  /** Runs after every other check (it reads what their sessions saw). */
  last?: boolean;
  run(ctx: CheckContext): Promise<Outcome>;
}

export interface RunOptions {
  only?: string[];
  skip?: string[];
  /** Number of fuzz frames (0 or absent: the fuzz check is skipped). */
  fuzz?: number;
  /** Seeds the fuzzer (random when absent) and the tool sample (DEFAULT_SAMPLE_SEED when absent). */
  seed?: number;
  /** How many tools the per-tool checks exercise (default TOOL_SAMPLE_SIZE); past it, a seeded sample. Infinity: every one. */
  maxTools?: number;
  /** Warnings count as failures. */
  strict?: boolean;
  /** The describe result, canonicalised, must equal this text byte for byte. */
  expectManifestText?: string;
  /** With expectManifestText: the name a describe answer without one is compared with (an adopted plugin's manifest.json carries its tool_id). */
  defaultManifestName?: string;
  /** Extra environment for the plugin, on top of the launch's. */
  env?: NodeJS.ProcessEnv;
  /** A folder (or file) of JSONL transcripts to replay. */
  fixtures?: string;
  /** Credentials for the replayed invokes of `fixtures` (the checks make up their own values). */
  credentials?: Record<string, string>;
  /** Sessions run at once (default 4). */
  concurrency?: number;
  /**
   * Every wait of the checks is this many times longer (default 1): under an emulator (qemu, Wine)
   * the emulator's speed is not the plugin's.
   */
  slowdown?: number;
  /** Called as each check finishes. */
  onResult?: (result: CheckResult) => void;
  /** Kept up to date as checks start, step through tools and finish (for a progress line). */
  progress?: RunProgress;
}

export const pass = (note?: string): Outcome => ({ status: "pass", ...(note && { note }) });
export const fail = (message: string, rule?: string): Outcome => ({ status: "fail", message, ...(rule && { rule }) });
export const warn = (message: string, rule?: string): Outcome => ({ status: "warn", message, ...(rule && { rule }) });
export const skip = (reason: string): Outcome => ({ status: "skip", reason });

/** Problems found one by one, then one outcome: fail when any broke a MUST, else warn when any is advice. */
export class Findings {
  private readonly fails: { message: string; rule: string }[] = [];
  private readonly warns: { message: string; rule: string }[] = [];

  fail(message: string, rule: string): void {
    this.fails.push({ message, rule });
  }

  warn(message: string, rule: string): void {
    this.warns.push({ message, rule });
  }

  get failed(): boolean {
    return this.fails.length > 0;
  }

  outcome(passNote?: string, tail = ""): Outcome {
    const join = (list: { message: string }[]) => list.map((f) => f.message).join("\n  ");
    const rules = (list: { rule: string }[]) => [...new Set(list.map((f) => f.rule))].join("\n");
    if (this.fails.length) {
      const also = this.warns.length ? `\n  also (warnings):\n  ${join(this.warns)}` : "";
      return fail(`${join(this.fails)}${also}${tail}`, rules(this.fails));
    }
    if (this.warns.length) return warn(`${join(this.warns)}${tail}`, rules(this.warns));
    return pass(passNote);
  }
}
