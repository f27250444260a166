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
