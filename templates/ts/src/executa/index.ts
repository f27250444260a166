/**
 * The Executa plugin runtime, vendored into this project (standard library only).
 * What it does, line by line, is create-executa's runtime contract (docs/runtime-contract.md).
 */
export { run, type RunOptions } from "./run.js";
export { HostCode, HostError, ToolError } from "./errors.js";
export type {
  Binding,
  Bindings,
  HostClient,
  Integer,
  Manifest,
  ParameterDefinition,
  SampleRequest,
  SampleResult,
  SamplingMessage,
  StorageOptions,
  StorageScope,
  ToolContext,
  ToolDefinition,
  ToolFunction,
} from "./types.js";
