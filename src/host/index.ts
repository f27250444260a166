export { detectLaunch, launchOfEntry, type LaunchSpec, type DetectedLaunch } from "./launch.js";
export { prepareLaunch, type PreparedLaunch } from "./prepare.js";
export { Session } from "./session.js";
export type { InvokeAnswerNote } from "./channel.js";
export {
  PluginExited, RpcTimeout, within, TIMED_OUT, describeExit,
  type SessionOptions, type InvokeOptions, type Response, type ReverseExchange, type FrameRecord, type ExitInfo, type Direction, type Noise, type Stray,
} from "./session-types.js";
export {
  MockHost, MockRuleSet, loadRules, parseRules, samplingFlag, promptText, SCOPES, SCHEMA_LIMITS, REVERSE_METHODS, DEFAULT_CANNED_TEXT, replayable, TRANSCRIPT_URL_BASE,
  type MockHostOptions, type MockRule, type UnusedRule, type SamplingMode, type ReverseRecord, type ReverseEvent, type ReverseObserver,
  type ActiveInvoke, type ReverseContext, type Answer, type AnsweredBy, type ErrorBody, type ManualReply, type ManualRequest,
  type StructuredSupport, type Scope, type KvEntry, type KvItem, type KvStore, type FileEntry, type FileItem, type FileStore,
} from "./mock/index.js";
export {
  readFileTransport, isFileTransportPointer, FILE_TRANSPORT_MAX_BYTES, FILE_TRANSPORT_PREFIX,
  type FileTransportRead, type TransportFolder,
} from "./file-transport.js";
export { matches, ANY } from "./match.js";
export { LineSplitter, type OversizeLine } from "./lines.js";
export { readFixture, HarnessRecorder, type Exchange, type Fixture, type RecordedReverse } from "./recording.js";
export { errorLine } from "./stderr.js";
export { readProgress, progressLine, type ProgressEvent, type InvokeState } from "./progress.js";
export { resultTooLarge, isOverResultLimit, type ResultTooLarge } from "./result-limit.js";
