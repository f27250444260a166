/**
 * The reverse-request families of the long reference §7 and the codes each answers with when the
 * host refuses: protocol 2.0 not negotiated, the manifest lacks the capability, the user did not
 * grant it, or the request is malformed.
 */
import {
  AgentError,
  EmbeddingsError,
  ImageError,
  RpcError,
  SamplingError,
  StorageError,
  UploadError,
} from "../../protocol/index.js";

export interface Namespace {
  name: string;
  /** Protocol 2.0 was not negotiated. */
  notNegotiated: number;
  /** The manifest's host_capabilities lack the method's capability. */
  missingCapability: number;
  /** The (simulated) user did not grant it. */
  notGranted: number;
  invalid: number;
  /** `error.data.errorCode` for a v1 session where the family has no NOT_NEGOTIATED code of its own. */
  notNegotiatedName?: string;
  /** `error.data.errorCode` when the manifest lacks the capability or the user refused it (the platform's web/* say "permission_denied"). */
  deniedName?: string;
}

const SAMPLING: Namespace = {
  name: "sampling",
  notNegotiated: SamplingError.NOT_NEGOTIATED,
  missingCapability: SamplingError.NOT_NEGOTIATED,
  notGranted: SamplingError.NOT_GRANTED,
  invalid: SamplingError.INVALID_REQUEST,
};
const AGENT: Namespace = {
  name: "agent",
  notNegotiated: SamplingError.NOT_NEGOTIATED,
  missingCapability: SamplingError.NOT_NEGOTIATED,
  notGranted: AgentError.NOT_GRANTED,
  invalid: AgentError.INVALID_REQUEST,
};
const STORAGE: Namespace = {
  name: "storage",
  notNegotiated: StorageError.NOT_GRANTED,
  missingCapability: StorageError.NOT_GRANTED,
  notGranted: StorageError.NOT_GRANTED,
  invalid: StorageError.INVALID_REQUEST,
  notNegotiatedName: "not_negotiated",
};
const FILES: Namespace = { ...STORAGE, name: "files" };
const UPLOAD: Namespace = {
  name: "upload",
  notNegotiated: UploadError.NOT_NEGOTIATED,
  missingCapability: UploadError.NOT_GRANTED,
  notGranted: UploadError.NOT_GRANTED,
  invalid: UploadError.INVALID_REQUEST,
};
const IMAGE: Namespace = {
  name: "image",
  notNegotiated: ImageError.NOT_NEGOTIATED,
  missingCapability: ImageError.NOT_GRANTED,
  notGranted: ImageError.NOT_GRANTED,
  invalid: ImageError.INVALID_REQUEST,
};
/** The platform relays its dispatcher's errors: permission_denied and the rest -32603, invalid_arg -32602 (anna-app-runtime-local's session.py). */
const WEB: Namespace = {
  name: "web",
  notNegotiated: RpcError.InternalError,
  missingCapability: RpcError.InternalError,
  notGranted: RpcError.InternalError,
  invalid: RpcError.InvalidParams,
  notNegotiatedName: "not_negotiated",
  deniedName: "permission_denied",
};
const EMBEDDINGS: Namespace = {
  name: "embeddings",
  notNegotiated: EmbeddingsError.NOT_NEGOTIATED,
  missingCapability: EmbeddingsError.NOT_GRANTED,
  notGranted: EmbeddingsError.NOT_GRANTED,
  invalid: EmbeddingsError.INVALID_REQUEST,
};

/** Every reverse request the mock host implements, with its family. */
export const METHODS: Readonly<Record<string, Namespace>> = {
  "sampling/createMessage": SAMPLING,
  "agent/complete": SAMPLING,
  "agent/session.create": AGENT,
  "agent/session.run": AGENT,
  "agent/session.cancel": AGENT,
  "agent/session.history": AGENT,
  "agent/session.list": AGENT,
  "agent/session.refresh": AGENT,
  "agent/session.delete": AGENT,
  "storage/get": STORAGE,
  "storage/set": STORAGE,
  "storage/delete": STORAGE,
  "storage/list": STORAGE,
  "files/upload_begin": FILES,
  "files/upload_complete": FILES,
  "files/download_url": FILES,
  "files/list": FILES,
  "files/delete": FILES,
  "host/uploadFile": UPLOAD,
  "image/generate": IMAGE,
  "image/edit": IMAGE,
  "embeddings/create": EMBEDDINGS,
  "web/search": WEB,
  "web/fetch": WEB,
};

/** Method names of an older documentation, with the current one to use instead. */
export const RENAMED: Readonly<Record<string, string>> = {
  "storage/kv_get": "storage/get",
  "storage/kv_set": "storage/set",
  "storage/kv_delete": "storage/delete",
  "storage/kv_list": "storage/list",
  "storage/files_upload_init": "files/upload_begin",
  "storage/files_finalize": "files/upload_complete",
  "storage/files_download_url": "files/download_url",
  "storage/files_list": "files/list",
  "storage/files_delete": "files/delete",
};

export function namespaceOf(method: string): Namespace | undefined {
  return Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
}
