/**
 * The tools the per-tool checks exercise: every tool up to a cap, past it a seeded sample (the same
 * seed always picks the same tools), so a describe with 100 000 tools is checked in bounded time.
 */
import type { ToolDefinition } from "../protocol/index.js";
import { rng } from "./fuzz-cases.js";

/** How many tools the per-tool checks exercise unless told to check every one. */
export const TOOL_SAMPLE_SIZE = 200;
/** The sample's seed when the run is given none: every run checks the same tools. */
export const DEFAULT_SAMPLE_SEED = 1;

export interface ToolSample {
  /** The tools to exercise, in manifest order. */
  tools: ToolDefinition[];
  /** How many tools the manifest has (a host could call). */
  of: number;
  /** The seed that picked them, when they are a sample. */
  seed?: number;
}

/** `cap` of `tools`, picked by a partial Fisher-Yates shuffle seeded with `seed`; all of them when there are no more than `cap`. */
export function sampleTools(tools: readonly ToolDefinition[], cap: number, seed: number): ToolSample {
  if (tools.length <= cap) return { tools: [...tools], of: tools.length };
  const random = rng(seed);
  const order = Uint32Array.from({ length: tools.length }, (_, i) => i);
  for (let i = 0; i < cap; i++) {
    const j = i + Math.floor(random() * (order.length - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const picked = order.subarray(0, cap).sort();
  return { tools: Array.from(picked, (i) => tools[i]!), of: tools.length, seed };
}

/** What a check that exercised a sample says about it; empty when it exercised every tool. */
export function sampleNote(sample: ToolSample): string {
  if (sample.tools.length === sample.of) return "";
  return `${sample.tools.length} of ${sample.of} tools checked (a sample picked by seed ${sample.seed}; --all-tools checks every one)`;
}
