/**
 * What each platform key means to each packager, and which targets each language builds and where
 * CI builds them. Light on purpose: the scaffold renders the workflows' build matrices from it
 * without loading the builder.
 */
export {
  artifactName,
  BUN_VERSION,
  bunTargetFor,
  goEnvFor,
  hostKey,
  isDarwin,
  isWindows,
  NODE_VERSION,
  nodeRuntimeFor,
  parseTargets,
} from "./platforms.js";
export { buildTargets, CROSS_RUNNER, NATIVE_RUNNERS, workflowMatrix } from "./languages.js";
export { pinnedAction, toolchainVersion, WORKFLOW_PINS, type WorkflowPins } from "./pins.js";
