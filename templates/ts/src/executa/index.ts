/**
 * The Executa plugin runtime, vendored into this project (standard library only).
 * What it does, line by line, is create-executa's runtime contract (docs/runtime-contract.md);
 * the host services are its docs/host-services.md.
 */
export { run, type RunOptions } from "./run.js";
export { HostCode, HostError, ToolError, WebError } from "./errors.js";
export { withDisplay } from "./display.js";
export type {
  Binding,
  Bindings,
  HostClient,
  Integer,
  Manifest,
  ParameterDefinition,
  ProgressType,
  ToolContext,
  ToolDefinition,
  ToolFunction,
} from "./types.js";
export type { CompleteRequest, ResponseFormat, SampleRequest, SampleResult, SamplingMessage } from "./sampling.js";
export type { AgentClient, AgentFrame, AgentRun, AgentRunOptions, AgentSession, AgentSessionOptions, AgentWarning } from "./agent.js";
export type { EmbeddingsClient, EmbeddingsResult, ImageClient, ImageOptions, ImageResult } from "./models.js";
export type { Bytes, FilesClient, FilesOptions, UploadOptions, UploadResult } from "./uploads.js";
export type { StorageClient, StorageOptions, StorageScope } from "./storage.js";
export type { WebClient, WebFetchRequest, WebFetchResult, WebPage, WebSearchHit, WebSearchRequest, WebSearchResult } from "./web.js";
