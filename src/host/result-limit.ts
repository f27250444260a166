/**
 * The platform's 4 MiB limit on an invoke's response frame: Anna's agent and its local-dev runtime
 * hand the caller `{success: false, error: "result too large: ...", data: {errorCode:
 * "RESULT_TOO_LARGE", result_size_bytes, max_payload_bytes}}` instead of the result, and so does
 * the host simulator (the plugin's own frame is kept beside it for the checks and the workbench).
 */
import { MAX_RESULT_BYTES, RESULT_TOO_LARGE } from "../protocol/index.js";

export interface ResultTooLarge {
  /** The response frame's bytes, without its newline. */
  bytes: number;
  maxBytes: number;
  /** What the platform gives the caller instead. */
  envelope: {
    success: false;
    error: string;
    data: { errorCode: typeof RESULT_TOO_LARGE; result_size_bytes: number; max_payload_bytes: number };
  };
}

export function isOverResultLimit(bytes: number): boolean {
  return bytes > MAX_RESULT_BYTES;
}

/** The platform's answer to a response frame of `bytes` (its message, word for word). */
export function resultTooLarge(bytes: number): ResultTooLarge {
  const error = `result too large: serialized result is ${bytes} bytes, exceeds transport limit of ${MAX_RESULT_BYTES} bytes; return a file reference (host/uploadFile or APS files) instead of inline data`;
  return {
    bytes,
    maxBytes: MAX_RESULT_BYTES,
    envelope: {
      success: false,
      error,
      data: { errorCode: RESULT_TOO_LARGE, result_size_bytes: bytes, max_payload_bytes: MAX_RESULT_BYTES },
    },
  };
}
