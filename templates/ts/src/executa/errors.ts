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
  /**
   * The code's name in the method's namespace, e.g. `PRECONDITION_FAILED`; for -32602 the host's
   * `data.errorCode` (e.g. `UNKNOWN_INVOKE_CONTEXT`); `UNKNOWN` for a code the namespace does not define.
   */
  readonly codeName: string;
  /** The error's `data`, if the host sent any. */
  readonly data: unknown;
  /** The reverse-RPC method that failed, e.g. `sampling/createMessage`. */
  readonly method: string;

  constructor(code: number, message: string, options: { method?: string; data?: unknown; codeName?: string } = {}) {
    super(message);
    this.name = "HostError";
    this.code = code;
    this.codeName = options.codeName ?? "UNKNOWN";
    this.method = options.method ?? "host request";
    this.data = options.data;
  }
}

/**
 * A `web/*` request failed. The platform names web errors by `data.errorCode` (`invalid_arg`,
 * `not_implemented`, `permission_denied`, ...), not by codes of their own: `errorCode` is that
 * name (the runtime's own for a local refusal: `permission_denied`, `timeout`, `invalid_arg`).
 */
export class WebError extends HostError {
  readonly errorCode: string;

  constructor(code: number, message: string, options: { method?: string; data?: unknown; codeName?: string } = {}) {
    super(code, message, options);
    this.name = "WebError";
    this.errorCode = this.codeName;
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

/** Reverse-RPC error codes of every namespace (long reference §7); `files/*` shares storage's. */
export const HostCode = {
  SamplingNotGranted: -32001,
  SamplingQuotaExceeded: -32002,
  SamplingProviderError: -32003,
  SamplingInvalidRequest: -32004,
  SamplingTimeout: -32005,
  SamplingMaxCallsExceeded: -32006,
  SamplingMaxTokensExceeded: -32007,
  SamplingNotNegotiated: -32008,
  SamplingUserDenied: -32009,
  SamplingUnsupportedResponseFormat: -32010,

  StorageNotGranted: -32021,
  StorageNotFound: -32022,
  StoragePreconditionFailed: -32023,
  StorageQuotaExceeded: -32024,
  StorageValueTooLarge: -32025,
  StorageRateLimited: -32026,
  StorageInvalidPath: -32027,
  StorageInvalidRequest: -32028,
  StorageUpstream: -32029,
  StorageTimeout: -32030,

  AgentNotGranted: -32041,
  AgentSessionNotFound: -32042,
  AgentInvalidRequest: -32043,
  AgentSubmodeMismatch: -32044,
  AgentQuotaExceeded: -32045,
  AgentProviderError: -32046,
  AgentRateLimited: -32047,
  AgentToolNotGranted: -32048,

  ImageNotGranted: -32101,
  ImageQuotaExceeded: -32102,
  ImageProviderError: -32103,
  ImageInvalidRequest: -32104,
  ImageTimeout: -32105,
  ImageMaxImagesExceeded: -32106,
  ImageNotNegotiated: -32107,
  ImageUserDenied: -32108,
  ImageNoModelAvailable: -32109,
  ImageStorageError: -32110,
  ImageEditNotSupported: -32311,
  ImageMaskUnsupported: -32312,
  ImageNUnsupported: -32313,
  ImageReferenceFetchFailed: -32314,

  UploadNotGranted: -32201,
  UploadQuotaExceeded: -32202,
  UploadInvalidRequest: -32203,
  UploadTooLarge: -32204,
  UploadMimeRejected: -32205,
  UploadPurposeRejected: -32206,
  UploadStorageError: -32207,
  UploadTimeout: -32208,
  UploadUserDenied: -32209,
  UploadNotNegotiated: -32210,
  UploadMaxFilesExceeded: -32211,
  UploadNotFound: -32212,
  UploadPresignFailed: -32213,

  EmbeddingsNotGranted: -32501,
  EmbeddingsQuotaExceeded: -32502,
  EmbeddingsProviderError: -32503,
  EmbeddingsInvalidRequest: -32504,
  EmbeddingsTimeout: -32505,
  EmbeddingsMaxTokensExceeded: -32506,
  EmbeddingsNotNegotiated: -32507,
  EmbeddingsUserDenied: -32508,
} as const;

/** `SessionNotFound` -> `SESSION_NOT_FOUND`, `NUnsupported` -> `N_UNSUPPORTED`. */
const screaming = (name: string) => name.replace(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g, "_").toUpperCase();

/** Code -> the reference's name, for the HostCode entries whose key starts with `prefix` ("Sampling"). */
export function codeNames(prefix: string): Map<number, string> {
  const names = new Map<number, string>();
  for (const [key, code] of Object.entries(HostCode)) if (key.startsWith(prefix)) names.set(code, screaming(key.slice(prefix.length)));
  return names;
}
