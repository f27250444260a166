/**
 * The reverse-RPC namespaces (create-executa's docs/host-services.md): the capabilities that
 * unlock each method, how long to wait for it, and the codes of its namespace.
 */
import { codeNames, HostCode, HostError, RpcCode, WebError } from "./errors.js";

export interface Namespace {
  /** Code -> its name in this namespace (HostError.codeName). */
  names: ReadonlyMap<number, string>;
  /** A local refusal: protocol 2.0 not negotiated, or the manifest lacks the capability. */
  refusalCode: number;
  timeoutCode: number;
  /** What the host would refuse, known before sending (a schema over the limits, a bad scope). */
  invalidCode: number;
  /**
   * `web/*`: the platform names web errors by `data.errorCode` (`invalid_arg`, `not_implemented`,
   * ...), not by codes of their own; these are the names of the runtime's local errors.
   */
  errorCodes?: { refusal: string; timeout: string; invalid: string };
}

const SAMPLING: Namespace = {
  names: codeNames("Sampling"),
  refusalCode: HostCode.SamplingNotNegotiated,
  timeoutCode: HostCode.SamplingTimeout,
  invalidCode: HostCode.SamplingInvalidRequest,
};
const AGENT: Namespace = {
  // agent/session.* shares sampling's timeout and refusal codes
  names: new Map([...codeNames("Agent"), [HostCode.SamplingTimeout, "TIMEOUT"], [HostCode.SamplingNotNegotiated, "NOT_NEGOTIATED"]]),
  refusalCode: HostCode.SamplingNotNegotiated,
  timeoutCode: HostCode.SamplingTimeout,
  invalidCode: HostCode.AgentInvalidRequest,
};
const STORAGE: Namespace = {
  names: codeNames("Storage"),
  refusalCode: HostCode.StorageNotGranted,
  timeoutCode: HostCode.StorageTimeout,
  invalidCode: HostCode.StorageInvalidRequest,
};
const UPLOAD: Namespace = {
  names: codeNames("Upload"),
  refusalCode: HostCode.UploadNotGranted,
  timeoutCode: HostCode.UploadTimeout,
  invalidCode: HostCode.UploadInvalidRequest,
};
const IMAGE: Namespace = {
  names: codeNames("Image"),
  refusalCode: HostCode.ImageNotGranted,
  timeoutCode: HostCode.ImageTimeout,
  invalidCode: HostCode.ImageInvalidRequest,
};
const EMBEDDINGS: Namespace = {
  names: codeNames("Embeddings"),
  refusalCode: HostCode.EmbeddingsNotNegotiated,
  timeoutCode: HostCode.EmbeddingsTimeout,
  invalidCode: HostCode.EmbeddingsInvalidRequest,
};

const WEB: Namespace = {
  names: new Map([[RpcCode.InvalidParams, "invalid_arg"], [RpcCode.InternalError, "internal"]]),
  refusalCode: RpcCode.InternalError,
  timeoutCode: RpcCode.InternalError,
  invalidCode: RpcCode.InvalidParams,
  errorCodes: { refusal: "permission_denied", timeout: "timeout", invalid: "invalid_arg" },
};

export interface MethodRule {
  namespace: Namespace;
  /** Manifest `host_capabilities`, any of which unlocks the method (none for a method of no namespace). */
  capabilities: readonly string[];
  /** The default wait, in ms. */
  timeoutMs: number;
}

// The capabilities that unlock each method: create-executa's src/protocol/capabilities.ts.
const AGENT_SESSION = ["llm.agent.auto", "llm.agent.fixed"];
const KV = [
  "aps.kv", "aps.scope.admin", "aps.scope.app.read", "aps.scope.app.write", "aps.scope.tool.read", "aps.scope.tool.write",
  "aps.scope.user.read", "aps.scope.user.write",
];
const FILES = ["aps.files", "aps.scope.admin"];

/** A method, or a prefix ending in "/" or "." -> its rule; the first that matches wins. */
const METHODS: readonly [string, Namespace, readonly string[], number][] = [
  ["sampling/createMessage", SAMPLING, ["llm.sample"], 90_000],
  ["agent/complete", SAMPLING, ["llm.sample"], 120_000],
  ["agent/session.create", AGENT, AGENT_SESSION, 30_000],
  ["agent/session.run", AGENT, AGENT_SESSION, 300_000],
  ["agent/session.list", AGENT, AGENT_SESSION, 15_000],
  ["agent/session.refresh", AGENT, AGENT_SESSION, 15_000],
  ["agent/session.", AGENT, AGENT_SESSION, 60_000],
  ["storage/", STORAGE, KV, 30_000],
  ["files/upload_begin", STORAGE, FILES, 60_000],
  ["files/upload_complete", STORAGE, FILES, 60_000],
  ["files/", STORAGE, FILES, 30_000],
  ["host/uploadFile", UPLOAD, ["host.upload"], 120_000],
  ["image/generate", IMAGE, ["llm.image"], 120_000],
  ["image/edit", IMAGE, ["llm.image.edit"], 120_000],
  ["embeddings/create", EMBEDDINGS, ["llm.embed"], 30_000],
  ["web/search", WEB, ["web.search"], 30_000],
  ["web/fetch", WEB, ["web.fetch"], 60_000],
];

/** The methods whose host reads `metadata.executa_invoke_id` (the others' metadata is the caller's own, or none). */
export const INVOKE_ID_METADATA: ReadonlySet<string> = new Set(["sampling/createMessage", "agent/complete", "image/generate", "image/edit"]);

/** `host/uploadFile` waits by mode. */
const UPLOAD_TIMEOUTS: Record<string, number> = { inline: 120_000, negotiate: 60_000, confirm: 30_000 };

/** The HTTP PUT of an upload (host/uploadFile negotiate, files/upload_begin). */
export const PUT_TIMEOUT_MS = 120_000;

/** A method of no namespace: no capability needed, sampling's codes. */
const OTHER: MethodRule = { namespace: SAMPLING, capabilities: [], timeoutMs: 90_000 };

export function ruleFor(method: string, params: Record<string, unknown>): MethodRule {
  const found = METHODS.find(([m]) => (m.endsWith("/") || m.endsWith(".") ? method.startsWith(m) : method === m));
  if (found === undefined) return OTHER;
  const [, namespace, capabilities, timeoutMs] = found;
  const mode = method === "host/uploadFile" && typeof params.mode === "string" && Object.hasOwn(UPLOAD_TIMEOUTS, params.mode) ? params.mode : undefined;
  return { namespace, capabilities, timeoutMs: mode === undefined ? timeoutMs : UPLOAD_TIMEOUTS[mode]! };
}

/** The `data` of a local error of kind `kind` (web errors carry their name there, as the platform's do). */
export function localData(namespace: Namespace, kind: "refusal" | "timeout" | "invalid"): { errorCode: string } | undefined {
  return namespace.errorCodes && { errorCode: namespace.errorCodes[kind] };
}

/** A HostError of the method, in its namespace; a WebError for `web/*`. */
export function hostError(namespace: Namespace, method: string, code: number, message: string, data?: unknown): HostError {
  const codeName_ = codeName(namespace, code, data);
  return namespace.errorCodes ? new WebError(code, message, { method, data, codeName: codeName_ }) : new HostError(code, message, { method, data, codeName: codeName_ });
}

/** The name of `code` in the namespace (for -32602, and for every web error, the host's `data.errorCode`), or `UNKNOWN`. */
export function codeName(namespace: Namespace, code: number, data: unknown): string {
  if ((code === RpcCode.InvalidParams || namespace.errorCodes !== undefined) && typeof data === "object" && data !== null) {
    const errorCode = (data as { errorCode?: unknown }).errorCode;
    if (typeof errorCode === "string" && errorCode !== "") return errorCode;
  }
  return namespace.names.get(code) ?? "UNKNOWN";
}
