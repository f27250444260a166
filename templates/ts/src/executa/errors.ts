/** The two errors a tool deals with, and the error codes the runtime uses. */

/**
 * An expected failure to report to the model: the invoke is answered
 * `{success: false, error: message}`. Throw it for bad input, missing credentials and the like.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

/** A reverse request failed: the host answered with an error, the wait timed out, or it was refused locally. */
export class HostError extends Error {
  /** The JSON-RPC error code, e.g. -32008 NOT_NEGOTIATED, -32001 NOT_GRANTED, -32005 TIMEOUT. */
  readonly code: number;
  /** The error's `data`, if the host sent any. */
  readonly data: unknown;
  /** The reverse-RPC method that failed, e.g. `sampling/createMessage`. */
  readonly method: string;

  constructor(code: number, message: string, options: { method?: string; data?: unknown } = {}) {
    super(message);
    this.name = "HostError";
    this.code = code;
    this.method = options.method ?? "host request";
    this.data = options.data;
  }
}

/** JSON-RPC error codes the runtime answers with. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A request that arrives while the plugin is stopping. */
  ShuttingDown: -32000,
} as const;

/** Reverse-RPC error codes: the ones the runtime raises locally, and the ones a tool commonly checks for. */
export const HostCode = {
  SamplingNotGranted: -32001,
  SamplingTimeout: -32005,
  SamplingNotNegotiated: -32008,
  SamplingUserDenied: -32009,
  StorageNotGranted: -32021,
  StorageTimeout: -32030,
} as const;
