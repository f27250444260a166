import { loadRules, type MockRuleSet } from "./rules.js";
import type { SamplingMode } from "./types.js";
import { DEFAULT_CANNED_TEXT } from "./mock-host.js";

export { MockHost, DEFAULT_CANNED_TEXT, replayable } from "./mock-host.js";
export { TRANSCRIPT_URL_BASE } from "./transcript-urls.js";
export { MockRuleSet, loadRules, parseRules, type UnusedRule } from "./rules.js";
export { SCOPES, type Scope } from "./kv.js";
export { SCHEMA_LIMITS } from "../../protocol/index.js";
export { METHODS as REVERSE_METHODS } from "./namespaces.js";
export type {
  ActiveInvoke,
  Answer,
  ManualReply,
  ManualRequest,
  MockHostOptions,
  ReverseContext,
  ReverseRecord,
  SamplingMode,
} from "./types.js";

/**
 * `--sampling`: "echo", a canned reply text, or "rules:FILE" (or a path ending in .jsonl), whose
 * rules are consulted first and fall back to the canned reply.
 */
export function samplingFlag(value: string | undefined): { sampling: SamplingMode; rules?: MockRuleSet } {
  if (value === undefined) return { sampling: { kind: "canned", text: DEFAULT_CANNED_TEXT } };
  if (value === "echo") return { sampling: { kind: "echo" } };
  // A bare path ending in .jsonl is a rules file too; a missing one is an error, not a canned reply.
  const file = value.startsWith("rules:") ? value.slice(6) : value.endsWith(".jsonl") ? value : undefined;
  if (file !== undefined) return { sampling: { kind: "canned", text: DEFAULT_CANNED_TEXT }, rules: loadRules(file) };
  return { sampling: { kind: "canned", text: value } };
}
