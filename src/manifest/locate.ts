/** Points manifest diagnostics (JSON paths) at the source declarations they come from. */
import { EXECUTA_JSON } from "../project/index.js";
import type { Diagnostic } from "../protocol/index.js";
import type { ToolLocation } from "./model.js";

const PATH = /^\$\.tools\[(\d+)\](?:\.parameters\[(\d+)\])?/;

/** Plugin-level paths point at executa.json, where those fields are set. */
export function attachLocations(
  diagnostics: Diagnostic[],
  locations: (ToolLocation | undefined)[],
  pluginFile = EXECUTA_JSON,
): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.file || !d.path) return d;
    const m = PATH.exec(d.path);
    if (!m) return d.path.startsWith("$.tools") ? d : { ...d, file: pluginFile };
    const tool = locations[Number(m[1])];
    const where = m[2] !== undefined ? (tool?.parameters[Number(m[2])] ?? tool) : tool;
    return where ? { ...d, file: where.file, line: where.line, column: where.column } : d;
  });
}
