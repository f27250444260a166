export const PROTOCOL_V1 = "1.1";
export const PROTOCOL_V2 = "2.0";

/** The longest frame, without its newline, that a plugin or host must accept. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** Responses whose serialised frame is larger than this go by file transport. */
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
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/**
 * The host's limits on a `sampling/createMessage` json_schema response format (long reference
 * §7.1): the runtimes refuse a schema past them before sending, and the mock host refuses it too.
 * Depth counts nested subschemas (the root is level 1); nodes count every subschema, the root included.
 */
export const SCHEMA_LIMITS = { maxBytes: 32 * 1024, maxDepth: 8, maxNodes: 512, name: /^[a-zA-Z0-9_-]{1,64}$/ } as const;

/** `host/uploadFile`: the most raw bytes an inline upload may carry (8 MiB); larger goes negotiate + PUT + confirm. */
export const INLINE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
