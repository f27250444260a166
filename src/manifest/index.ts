/**
 * `executa manifest`: the describe result generated from the code (TypeScript, Python, Go, or a
 * running plugin), written as manifest.json plus the language's bindings file, or checked.
 */
export { generateManifest, applyStrict, type Generated } from "./generate.js";
export { writeOutputs, type Output } from "./outputs.js";
export { regenerateManifest } from "./regenerate.js";
export { checkManifest, compareOutputs, type CheckResult } from "./check.js";
export { unifiedDiff } from "./unified-diff.js";
export { describeLaunch, liveManifest, manifestOfAnswer } from "./live/index.js";
export { syncVersion } from "./sync-version.js";
export { compareWithRelease, type AgainstResult } from "./against.js";
export { newestVersionTag, readReleased } from "./released.js";
