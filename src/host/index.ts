export { detectLaunch, type LaunchSpec, type DetectedLaunch } from "./launch.js";
export { prepareLaunch, type PreparedLaunch } from "./prepare.js";
export {
  Session, PluginExited, RpcTimeout, within, TIMED_OUT, describeExit,
  type SessionOptions, type InvokeOptions, type Response, type FrameRecord, type ExitInfo, type Direction,
} from "./session.js";
export {
  MockHost, loadRules, samplingModeFrom,
  type MockHostOptions, type MockRule, type SamplingMode, type ReverseRecord, type ActiveInvoke, type ReverseContext,
} from "./mock-host.js";
export { readFileTransport, isFileTransportPointer, type FileTransportRead } from "./file-transport.js";
export { matches, ANY } from "./match.js";
export { LineSplitter } from "./lines.js";
