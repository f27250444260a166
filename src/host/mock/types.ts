/** The mock host's public shapes: what it is given, what it answers, what it records. */
import type { MockRuleSet } from "./rules.js";

export interface ErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** The answer to one reverse request: exactly the `result` or `error` member of the response frame. */
export type Answer = { result: unknown } | { error: ErrorBody };

export interface ActiveInvoke {
  invokeId: string;
  tool: string;
  requestId: string | number;
  deadlineMs: number;
}

/** What the host knows when a reverse request arrives. */
export interface ReverseContext {
  /** Protocol 2.0 holds: an initialize negotiated it, or none was sent (Anna's local-dev runtime sends none). */
  negotiatedV2: boolean;
  /** The version an initialize ended on, when one was sent. */
  protocolVersion?: string;
  /** The manifest's host_capabilities; undefined when no describe has been seen. */
  hostCapabilities: readonly string[] | undefined;
  /** The plugin's tool id (its manifest name), when a describe answered one. */
  toolId?: string;
  activeInvokes: ReadonlyMap<string, ActiveInvoke>;
}

/** Who produced an answer. */
export type AnsweredBy = "host" | "rule" | "mock" | "manual";

export interface ReverseRecord {
  /** 1, 2, 3... in arrival order, per mock host. */
  seq: number;
  /** Milliseconds since the mock host was created, at arrival. */
  t: number;
  id: unknown;
  method: string;
  /** The params as sent (long strings cut to keep the log small). */
  params: unknown;
  /** `params.context.invoke_id` as the plugin sent it (undefined when absent). */
  invokeId: string | undefined;
  /** `params.metadata.executa_invoke_id` (the legacy echo). */
  legacyInvokeId: string | undefined;
  /** Invoke ids active when it arrived. */
  active: string[];
  /** The invoke the request was attributed to, when routing succeeded. */
  routedTo?: string;
  state: "pending" | "answered";
  answeredBy?: AnsweredBy;
  /** The rule that answered, as `file:line`. */
  rule?: string;
  /** Things the host adjusted or wants the author to know (a clamped maxTokens...). */
  notes?: string[];
  /** Milliseconds from arrival to answer. */
  ms?: number;
  result?: unknown;
  error?: ErrorBody;
}

export type ReverseEvent = "arrived" | "answered";
export type ReverseObserver = (event: ReverseEvent, record: ReverseRecord) => void;

/** A request waiting for a person's answer (the web workbench). */
export interface ManualRequest {
  method: string;
  params: Record<string, unknown>;
  record: ReverseRecord;
  /** The prompt as text (the messages, the run's content), to show. */
  prompt: string;
}

/** A person's answer: a full answer, or just the text the model would have said. */
export type ManualReply = Answer | { text: string };

export type SamplingMode =
  | { kind: "canned"; text: string }
  | { kind: "echo" }
  | { kind: "manual"; answer(request: ManualRequest): Promise<ManualReply> };

/** Which structured output the simulated model supports (to exercise `onUnsupported`). */
export type StructuredSupport = "json_schema" | "json_object" | "text";

export interface MockHostOptions {
  sampling?: SamplingMode;
  /** Rules from `--mock` and `--sampling rules:FILE`, consulted first (shared by every host made from these options). */
  rules?: MockRuleSet;
  /** Keep storage, files and uploads in this folder instead of memory. */
  storageDir?: string;
  /** Capabilities the simulated user did not grant: their methods are answered NOT_GRANTED. */
  refuse?: readonly string[];
  /** What the simulated model supports; default json_schema. */
  structuredOutput?: StructuredSupport;
  /** Every id the host makes comes from this seed (the same seed, the same ids); random when absent. */
  seed?: string;
  /** Milliseconds since the epoch; tests pass a fake clock to move TTLs. */
  clock?: () => number;
  /** Most bytes kept in memory for files, and for uploads and images; default 256 MiB each. */
  memoryQuotaBytes?: number;
  /** Records kept in `log` (the oldest go first); default 20 000. */
  maxRecords?: number;
}
