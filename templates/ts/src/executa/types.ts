/** The shapes the runtime works with: the manifest it serves, the bindings, the tool context. */
import type { AgentClient } from "./agent.js";
import type { EmbeddingsClient, ImageClient } from "./models.js";
import type { SampleRequest, SampleResult } from "./sampling.js";
import type { StorageClient } from "./storage.js";
import type { Bytes, FilesClient, UploadOptions, UploadResult } from "./uploads.js";
import type { WebClient } from "./web.js";

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

/** The plugin -> host reverse requests, on behalf of the current invoke (docs/host-services.md). */
export interface HostClient {
  /**
   * Send a reverse request and wait for its result. Throws `HostError` when the host answers
   * with an error, when the wait times out, or (without writing anything) when an `initialize`
   * offered a protocol other than 2.0 or the manifest lacks the capability the method needs.
   */
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** `sampling/createMessage`: ask the host's language model. Needs `llm.sample`. */
  sample(request: SampleRequest): Promise<SampleResult>;
  /** `agent/*`: one-shot completions (`llm.sample`) and agent sessions (`llm.agent.auto` or `llm.agent.fixed`). */
  readonly agent: AgentClient;
  /** `embeddings/create`. Needs `llm.embed`. */
  readonly embeddings: EmbeddingsClient;
  /** `image/generate` (`llm.image`) and `image/edit` (`llm.image.edit`). */
  readonly image: ImageClient;
  /** `host/uploadFile`: a transient upload with a download URL. Needs `host.upload`. */
  upload(bytes: Bytes, options: UploadOptions): Promise<UploadResult>;
  /** `files/*`: the host's object storage. Needs `aps.files` (or `aps.scope.admin`). */
  readonly files: FilesClient;
  /** `storage/*`: the host's key-value store. Needs `aps.kv` (or an `aps.scope.*` capability). */
  readonly storage: StorageClient;
  /** `web/search` (`web.search`) and `web/fetch` (`web.fetch`): the host's web search and page extraction. */
  readonly web: WebClient;
}

/** `"progress"` (the default) or `"tool_update"`. */
export type ProgressType = "progress" | "tool_update";

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
  /** Reverse requests to the host (every host service), stamped with this invoke's id. */
  readonly host: HostClient;
  /**
   * Report progress while the tool runs: sends the notification `executa/progress` with
   * `{context: {invoke_id}, type, data}`; Anna shows it on the invoke's job (and `executa dev`
   * prints it). `data` is a JSON object, e.g. `ctx.progress({step: 2, of: 5})`. Needs no
   * capability. Throws once the invoke has been answered.
   */
  progress(data: Record<string, unknown>, type?: ProgressType): void;
  /** Write a line to stderr (the host's log), tagged with the tool and invoke id. */
  log(...args: unknown[]): void;
}
