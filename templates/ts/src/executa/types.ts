/** The shapes the runtime works with: the manifest it serves, the bindings, the tool context. */

/**
 * A whole number. Use it for integer parameters: `executa manifest` maps it to `"integer"`.
 * A plain number is assignable to it; the runtime checks the value before your tool runs.
 */
export type Integer = number & { readonly __integer?: never };

/** One parameter of a tool, as `manifest.json` declares it. */
export interface ParameterDefinition {
  name: string;
  type: string;
  description?: string;
  /** Defaults to true, as in the protocol. */
  required?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  items?: { type?: string; [key: string]: unknown };
  items_type?: string;
  [key: string]: unknown;
}

/** One tool, as `manifest.json` declares it. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** Seconds; 60 when absent. */
  timeout?: number;
  parameters?: readonly ParameterDefinition[];
  [key: string]: unknown;
}

/** The `describe` result: `manifest.json` as committed. */
export interface Manifest {
  name: string;
  display_name?: string;
  version: string;
  description?: string;
  tools: readonly ToolDefinition[];
  host_capabilities?: readonly string[];
  [key: string]: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolFunction = (...args: any[]) => unknown;

/**
 * How the runtime calls one tool. `load` is called on the tool's first invoke, so `describe`
 * never loads a tool module. `style: "args"` calls `fn(args, ctx)`; `style: "positional"`
 * calls `fn(args[params[0]], args[params[1]], ..., ctx)`.
 */
export type Binding =
  | { style: "args"; load: () => Promise<ToolFunction> }
  | { style: "positional"; params: readonly string[]; load: () => Promise<ToolFunction> };

/** Tool name -> binding. `executa manifest` writes this into `src/executa.bindings.ts`. */
export type Bindings = Record<string, Binding>;

/** One message of a sampling request. */
export interface SamplingMessage {
  role: "user" | "assistant" | "system";
  content: { type: "text"; text: string };
}

/** The arguments of `ctx.host.sample`: give `messages`, or a `prompt` that becomes one user message. */
export interface SampleRequest {
  messages?: SamplingMessage[];
  prompt?: string;
  /** Defaults to 1024; the host caps it at 8192. */
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** How long to wait for the host, in ms (90 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

/** The `sampling/createMessage` result. */
export interface SampleResult {
  role?: string;
  content: { type: string; text?: string; [key: string]: unknown };
  model?: string;
  stopReason?: string;
  usage?: Record<string, number>;
  [key: string]: unknown;
}

export type StorageScope = "tool" | "user" | "app";

export interface StorageOptions {
  /** `"tool"` (private to this plugin and user) by default. */
  scope?: StorageScope;
  /** How long to wait for the host, in ms (30 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

/** The plugin -> host reverse requests, on behalf of the current invoke. */
export interface HostClient {
  /**
   * Send a reverse request and wait for its result. Throws `HostError` when the host answers
   * with an error, when the wait times out, or (without writing anything) when protocol 2.0
   * was not negotiated or the manifest lacks the capability the method needs.
   */
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** `sampling/createMessage`: ask the host's language model. Needs `llm.sample`. */
  sample(request: SampleRequest): Promise<SampleResult>;
  /** `storage/*`: the host's key-value store. Needs `aps.kv`. */
  readonly storage: {
    get(key: string, options?: StorageOptions): Promise<{ value: unknown; etag?: string; exists: boolean }>;
    set(
      key: string,
      value: unknown,
      options?: StorageOptions & { ifMatch?: string; ttlSeconds?: number },
    ): Promise<{ etag?: string; generation?: number; size_bytes?: number }>;
    delete(key: string, options?: StorageOptions & { ifMatch?: string }): Promise<{ deleted: boolean }>;
    list(
      options?: StorageOptions & { prefix?: string; cursor?: string; limit?: number; kind?: "kv" | "file" },
    ): Promise<{ items: unknown[]; next_cursor?: string | null }>;
  };
}

/** What a tool receives as its last argument. */
export interface ToolContext {
  /** The tool being invoked. */
  readonly tool: string;
  /** `context.invoke_id` of the invoke (or the legacy `params.invoke_id`); `""` when absent. */
  readonly invokeId: string;
  /** The invoke's deadline, Unix epoch ms: `context.deadline_ms`, else now + the tool's timeout. */
  readonly deadlineMs: number;
  /** A credential: `context.credentials[name]`, else the environment variable `name`, else undefined. */
  credential(name: string): string | undefined;
  /** Reverse requests to the host (sampling, storage), stamped with this invoke's id. */
  readonly host: HostClient;
  /** Write a line to stderr (the host's log), tagged with the tool and invoke id. */
  log(...args: unknown[]): void;
}
