/** The suite, in report order. */
import type { Check } from "../types.js";
import { credentialsCheck } from "./credentials.js";
import { healthCheck } from "./health.js";
import { envelopeCheck, invalidArgumentsCheck, unknownToolCheck } from "./invoke.js";
import { idZeroCheck, invalidRequestCheck, notificationCheck, parseErrorCheck, unknownMethodCheck } from "./jsonrpc.js";
import { aliveCheck, describeCheck, eofCheck, orphansCheck, sigtermCheck, stdoutCheck } from "./lifecycle.js";
import { noInitializeCheck, progressCheck, resultSizeCheck } from "./platform.js";
import { initializeV1Check, initializeV2Check, invokeIdCheck } from "./protocol-v2.js";
import { fileSafetyCheck, fileTransportCheck, largeFrameCheck } from "./transport.js";

export { manifestTextCheck } from "./lifecycle.js";

export const CHECKS: readonly Check[] = [
  describeCheck,
  aliveCheck,
  stdoutCheck,
  eofCheck,
  sigtermCheck,
  orphansCheck,
  healthCheck,
  unknownMethodCheck,
  parseErrorCheck,
  invalidRequestCheck,
  idZeroCheck,
  notificationCheck,
  initializeV2Check,
  initializeV1Check,
  unknownToolCheck,
  invalidArgumentsCheck,
  envelopeCheck,
  resultSizeCheck,
  credentialsCheck,
  invokeIdCheck,
  noInitializeCheck,
  largeFrameCheck,
  fileTransportCheck,
  fileSafetyCheck,
  progressCheck,
];
