export const PROTOCOL_V1 = "1.1";
export const PROTOCOL_V2 = "2.0";

/** The longest frame, without its newline, that a plugin or host must accept. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/**
 * The platform's limit on one invoke result frame (without its newline): Anna's agent and its
 * local-dev runtime replace a larger one with RESULT_TOO_LARGE, and our runtimes answer with that
 * error themselves (docs/runtime-contract.md).
 */
export const MAX_RESULT_BYTES = 4 * 1024 * 1024;
/** `error.data.errorCode` of a result over MAX_RESULT_BYTES, as the platform writes it. */
export const RESULT_TOO_LARGE = "RESULT_TOO_LARGE";
/** The notification a running tool sends: `{context: {invoke_id}, type, data}`; the platform relays it to the invoke's job. */
export const PROGRESS_METHOD = "executa/progress";
export const PROGRESS_TYPES = ["progress", "tool_update"] as const;
/** Older plugins (the official SDKs) answer results above this by file transport; ours never do. */
export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;
export const FILE_TRANSPORT_KEY = "__file_transport";

/** How long the Agent waits, as the spec gives it. */
export const Timeouts = {
  describeMs: 5_000,
  healthMs: 3_000,
  invokeDefaultS: 60,
  /** SIGTERM, then SIGKILL after this long. */
  sigtermGraceMs: 5_000,
} as const;

export const HEALTH_STATUSES = ["ready", "error", "initializing"] as const;

/**
 * The host's limits on a `sampling/createMessage` json_schema response format (long reference
 * §7.1): the runtimes refuse a schema past them before sending, and the mock host refuses it too.
 * Depth counts nested subschemas (the root is level 1); nodes count every subschema, the root included.
 */
export const SCHEMA_LIMITS = {
  maxBytes: 32 * 1024,
  maxDepth: 8,
  maxNodes: 512,
  name: /^[a-zA-Z0-9_-]{1,64}$/,
} as const;

/** `host/uploadFile`: the most raw bytes an inline upload may carry (8 MiB); larger goes negotiate + PUT + confirm. */
export const INLINE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
