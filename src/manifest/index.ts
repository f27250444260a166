/**
 * `executa manifest`: the describe result generated from the code (TypeScript, Python, Go, or a
 * running plugin), written as manifest.json plus the language's bindings file, or checked.
 */
export { generateManifest, applyStrict, type Generated, type GenerateOptions } from "./generate.js";
export { writeOutputs, type Output } from "./outputs.js";
export { regenerateManifest, type Regenerated } from "./regenerate.js";
export { checkManifest, compareOutputs, type CheckResult, type CheckStatus } from "./check.js";
export { manifestChanges, type Change, type ChangeKind } from "./changes.js";
export { unifiedDiff } from "./unified-diff.js";
export { describeLaunch, describePlugin, liveManifest, manifestOfAnswer, withDefaultName, type LiveDescribe, type LiveManifest } from "./live/index.js";
export { syncVersion } from "./sync-version.js";
export { classifyChanges, compareWithRelease, type AgainstResult, type Bump, type ChangeClass, type ClassifiedChange } from "./against.js";
export { newestVersionTag, readReleased, type Released } from "./released.js";
