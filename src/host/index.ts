export { detectLaunch, launchOfEntry, type LaunchSpec, type DetectedLaunch } from "./launch.js";
export { prepareLaunch, type PreparedLaunch } from "./prepare.js";
export { Session } from "./session.js";
export {
  PluginExited,
  RpcTimeout,
  within,
  TIMED_OUT,
  describeExit,
  type SessionOptions,
  type Response,
  type ReverseExchange,
  type FrameRecord,
  type Stray,
} from "./session-types.js";
export {
  MockHost,
  MockRuleSet,
  loadRules,
  parseRules,
  samplingFlag,
  SCOPES,
  SCHEMA_LIMITS,
  REVERSE_METHODS,
  DEFAULT_CANNED_TEXT,
  replayable,
  TRANSCRIPT_URL_BASE,
  type MockHostOptions,
  type UnusedRule,
  type SamplingMode,
  type ReverseRecord,
  type ActiveInvoke,
  type ReverseContext,
  type Answer,
  type ManualReply,
  type ManualRequest,
  type Scope,
} from "./mock/index.js";
export {
  isFileTransportPointer,
  type FileTransportRead,
} from "./file-transport.js";
export { matches } from "./match.js";
export { readFixture, HarnessRecorder, type Exchange, type RecordedReverse } from "./recording.js";
export { errorLine } from "./stderr.js";
export { progressLine, type ProgressEvent } from "./progress.js";
