export { runChecks } from "./run.js";
export { RunProgress } from "./progress.js";
export { CHECKS } from "./checks/index.js";
export { generateCases, rng, type FuzzCase, type Expectation } from "./fuzz-cases.js";
export { FUZZ_CHECK_ID, fuzzSession, type FuzzStats } from "./fuzz.js";
export { validArguments } from "./args.js";
export { replayExchange, type Replayed } from "./fixtures.js";
export type { Check, CheckResult, CheckStatus, ConformanceReport, RunOptions, Outcome } from "./types.js";
export type { LaunchSpec } from "../host/index.js";
