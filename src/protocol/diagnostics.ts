/** A problem found in a manifest or in the source it was generated from. */
export interface Diagnostic {
  severity: "error" | "warning";
  message: string;
  /** A fix, when there is an obvious one. */
  hint?: string;
  /** JSON path into the manifest, e.g. `$.tools[0].parameters[1].type`. */
  path?: string;
  /** Source location, when the problem comes from source code. */
  file?: string;
  line?: number;
  column?: number;
}

/** `file:line:col: error: message (hint)` for source problems, `path: error: message` otherwise. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file
    ? `${d.file}${d.line !== undefined ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}` : ""}`
    : (d.path ?? "manifest");
  return `${where}: ${d.severity}: ${d.message}${d.hint ? ` (${d.hint})` : ""}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}
