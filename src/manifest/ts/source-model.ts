/**
 * The TypeScript extractor's view of the source, independent of the compiler that produced it:
 * the backend (ts/backend/, the only code that touches the TypeScript API) reads the project into
 * these shapes; map.ts turns them into manifest tools. Swapping the backend (e.g. for TypeScript 7's
 * API) means writing a new reader that returns the same shapes.
 */
import type { Diagnostic, Json } from "../../protocol/index.js";
import type { RawHostCall } from "../host-helpers.js";
import type { SourceLocation } from "../model.js";

export type Literal = string | number | boolean;

export type Shape =
  | { kind: "string" }
  | { kind: "number"; integer: boolean }
  | { kind: "boolean" }
  | { kind: "enum"; base: "string" | "number" | "boolean"; values: Literal[] }
  | { kind: "array"; element: Shape }
  | { kind: "object" }
  /** `problem` replaces "<what> has no manifest type" when the type itself is broken (a name that does not resolve). */
  | { kind: "unsupported"; what: string; hint: string; problem?: string };

export interface SourceInitializer {
  /** The JSON value, when the initializer is a JSON literal. */
  value?: Json;
  text: string;
}

export interface SourceParam {
  name: string;
  shape: Shape;
  optional: boolean;
  description?: string;
  /** The description came from a `//` or trailing comment rather than the property's own JSDoc. */
  describedByPlainComment?: boolean;
  integerTag: boolean;
  initializer?: SourceInitializer;
  defaultTag?: string;
  location: SourceLocation;
}

export interface SourceTool {
  name: string;
  /** The name the module exports the function under ("default" for a default export). */
  exportName: string;
  /** Project-relative file. */
  file: string;
  style: "args" | "positional";
  params: SourceParam[];
  description: string;
  timeoutTag?: string;
  /** Names given to `@param` tags, to warn about the ones that match no parameter. */
  paramTags: { name: string; location: SourceLocation }[];
  location: SourceLocation;
  /** The calls the tool makes on values reached from its context (host-service helpers among them). */
  hostCalls: RawHostCall[];
}

export interface SourceReading {
  tools: SourceTool[];
  diagnostics: Diagnostic[];
}
