/** The shapes of the conformance suite: a check, what it found, the report. */
import type { LaunchSpec } from "../host/index.js";
import type { CheckContext } from "./context.js";

export type CheckStatus = "pass" | "fail" | "skip";

export interface CheckResult {
  id: string;
  description: string;
  status: CheckStatus;
  /** Fail: what broke, the rule and the frames that show it. Skip: why. Pass: a note, if any. */
  message?: string;
  /** The spec rule the check enforces. */
  rule?: string;
  ms?: number;
}

export interface ConformanceReport {
  passed: boolean;
  results: CheckResult[];
  /** Wall time of the whole suite. */
  ms?: number;
  /** The fuzz seed, when --fuzz ran. */
  seed?: number;
}

export type Outcome = { status: "pass"; note?: string } | { status: "fail"; message: string } | { status: "skip"; reason: string };

/** What a check needs from the probe session before it can say anything. */
export type Prerequisite = "alive" | "manifest" | "tools";

export interface Check {
  id: string;
  description: string;
  rule: string;
  needs: Prerequisite[];
  run(ctx: CheckContext): Promise<Outcome>;
}

export interface RunOptions {
  only?: string[];
  skip?: string[];
  /** Number of fuzz frames (0 or absent: the fuzz check is skipped). */
  fuzz?: number;
  seed?: number;
  /** The describe result, canonicalised, must equal this text byte for byte. */
  expectManifestText?: string;
  /** Extra environment for the plugin, on top of the launch's. */
  env?: NodeJS.ProcessEnv;
  /** A folder (or file) of JSONL transcripts to replay. */
  fixtures?: string;
  /** Sessions run at once (default 4). */
  concurrency?: number;
  /** Called as each check finishes. */
  onResult?: (result: CheckResult) => void;
}

export type { LaunchSpec };

export const pass = (note?: string): Outcome => ({ status: "pass", ...(note && { note }) });
export const fail = (message: string): Outcome => ({ status: "fail", message });
export const skip = (reason: string): Outcome => ({ status: "skip", reason });
