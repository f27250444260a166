/** JSON-RPC 2.0 error codes the plugin answers with. */
export const RpcError = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined (-32000..-32099): a request that arrives while the plugin is stopping (docs/runtime-contract.md). */
  ShuttingDown: -32000,
} as const;

/** Error codes of the reverse-RPC namespaces (host -> plugin answers to plugin requests). */
export const SamplingError = {
  NOT_GRANTED: -32001,
  QUOTA_EXCEEDED: -32002,
  PROVIDER_ERROR: -32003,
  INVALID_REQUEST: -32004,
  TIMEOUT: -32005,
  MAX_CALLS_EXCEEDED: -32006,
  MAX_TOKENS_EXCEEDED: -32007,
  NOT_NEGOTIATED: -32008,
  USER_DENIED: -32009,
  UNSUPPORTED_RESPONSE_FORMAT: -32010,
} as const;

export const StorageError = {
  NOT_GRANTED: -32021,
  NOT_FOUND: -32022,
  PRECONDITION_FAILED: -32023,
  QUOTA_EXCEEDED: -32024,
  VALUE_TOO_LARGE: -32025,
  RATE_LIMITED: -32026,
  INVALID_PATH: -32027,
  INVALID_REQUEST: -32028,
  UPSTREAM: -32029,
  TIMEOUT: -32030,
} as const;

export const UploadError = {
  NOT_GRANTED: -32201,
  QUOTA_EXCEEDED: -32202,
  INVALID_REQUEST: -32203,
  TOO_LARGE: -32204,
  MIME_REJECTED: -32205,
  PURPOSE_REJECTED: -32206,
  STORAGE_ERROR: -32207,
  TIMEOUT: -32208,
  USER_DENIED: -32209,
  NOT_NEGOTIATED: -32210,
  MAX_FILES_EXCEEDED: -32211,
  NOT_FOUND: -32212,
  PRESIGN_FAILED: -32213,
} as const;

/** agent/session.* (the Python SDK's names; an older doc names the same codes differently). */
export const AgentError = {
  NOT_GRANTED: -32041,
  SESSION_NOT_FOUND: -32042,
  INVALID_REQUEST: -32043,
  SUBMODE_MISMATCH: -32044,
  QUOTA_EXCEEDED: -32045,
  PROVIDER_ERROR: -32046,
  RATE_LIMITED: -32047,
  TOOL_NOT_GRANTED: -32048,
} as const;

export const ImageError = {
  NOT_GRANTED: -32101,
  QUOTA_EXCEEDED: -32102,
  PROVIDER_ERROR: -32103,
  INVALID_REQUEST: -32104,
  TIMEOUT: -32105,
  MAX_IMAGES_EXCEEDED: -32106,
  NOT_NEGOTIATED: -32107,
  USER_DENIED: -32108,
  NO_MODEL_AVAILABLE: -32109,
  STORAGE_ERROR: -32110,
  EDIT_NOT_SUPPORTED: -32311,
  MASK_UNSUPPORTED: -32312,
  N_UNSUPPORTED: -32313,
  REFERENCE_FETCH_FAILED: -32314,
} as const;

export const EmbeddingsError = {
  NOT_GRANTED: -32501,
  QUOTA_EXCEEDED: -32502,
  PROVIDER_ERROR: -32503,
  INVALID_REQUEST: -32504,
  TIMEOUT: -32505,
  MAX_TOKENS_EXCEEDED: -32506,
  NOT_NEGOTIATED: -32507,
  USER_DENIED: -32508,
} as const;

/** The `error.data.errorCode` strings a host uses for invoke-correlation failures (code -32602). */
export const InvokeContextError = {
  UNKNOWN_INVOKE_CONTEXT: "UNKNOWN_INVOKE_CONTEXT",
  MISSING_INVOKE_CONTEXT: "MISSING_INVOKE_CONTEXT",
} as const;
