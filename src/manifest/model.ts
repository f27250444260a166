/** What every extractor returns: tools, where each came from, and how the runtime reaches each. */
import type { Diagnostic, ToolDefinition } from "../protocol/index.js";

export interface SourceLocation {
  /** Project-relative, `/` separators. */
  file: string;
  line: number;
  column: number;
}

/** Where a tool and each of its parameters are declared, to point diagnostics at the source. */
export interface ToolLocation extends SourceLocation {
  parameters: (SourceLocation | undefined)[];
}

/** How the runtime reaches one tool (the bindings file is rendered from these). */
export interface ToolBinding {
  tool: string;
  /** TS: module path relative to src/ ("./tools.js"); Python: dotted module; Go: unused. */
  module: string;
  /** The exported function (TS, Python) or the Go function name. */
  symbol: string;
  /** TS only. */
  style?: "args" | "positional";
  params?: string[];
}

/** A call of a runtime host-service helper inside a tool's code, found statically (docs/host-services.md). */
export interface HostCall extends SourceLocation {
  /**
   * The reverse-RPC method it sends ("sampling/createMessage"), or the family of a helper that
   * sends several ("files/", "agent/session."); `undefined` for a generic `host.request` whose
   * method is not a literal (it could be anything).
   */
  method: string | undefined;
  /** How the source names it: "ctx.host.sample", "host.request", "Host.StorageGet". */
  helper: string;
}

export interface Extraction {
  tools: ToolDefinition[];
  locations: (ToolLocation | undefined)[];
  /**
   * Per tool, in the order of `tools`: the host-service helper calls its function makes (its own
   * body and the functions of the project it calls). Absent when the extractor does not look.
   */
  hostCalls?: HostCall[][];
  bindings: ToolBinding[];
  diagnostics: Diagnostic[];
  /** Python: the package the bindings file goes into (a project-relative directory). */
  packageDir?: string;
  /** Go: the bindings file as the helper formatted it (go/format). */
  bindingsSource?: string;
  /** How the tools were read, for the report ("typescript", "python3 3.11.4", "precomputed template data"). */
  via: string;
}
