/**
 * What each platform key means to each packager, and which targets each language builds and where
 * CI builds them. Light on purpose: the scaffold renders the workflows' build matrices from it
 * without loading the builder.
 */
export { artifactName, BUN_VERSION, bunTargetFor, goEnvFor, hostKey, isDarwin, isWindows, NODE_VERSION, nodeRuntimeFor, nodeTargetExists, parseTargets, type NodeRuntime } from "./platforms.js";
export { buildTargets, CROSS_RUNNER, NATIVE_RUNNERS, workflowMatrix, type MatrixEntry } from "./languages.js";
export { pinnedAction, toolchainVersion, WORKFLOW_PINS, WORKFLOW_PINS_FILE, type ActionPin, type WorkflowPins } from "./pins.js";
