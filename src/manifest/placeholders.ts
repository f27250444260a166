/** Descriptions still holding a placeholder (`add tool` writes "TODO: describe x."): warnings, so errors under --strict. */
import type { Diagnostic, Manifest } from "../protocol/index.js";

const PLACEHOLDER = /^\s*TODO\b/i;

export function placeholderDiagnostics(manifest: Manifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  manifest.tools.forEach((tool, i) => {
    if (typeof tool.description === "string" && PLACEHOLDER.test(tool.description)) {
      out.push({
        severity: "warning",
        path: `$.tools[${i}].description`,
        message: `the tool ${tool.name} still has a placeholder description (${JSON.stringify(tool.description)})`,
        hint: "write what the tool does: the model reads this to choose it",
      });
    }
    (tool.parameters ?? []).forEach((p, j) => {
      if (typeof p.description === "string" && PLACEHOLDER.test(p.description)) {
        out.push({
          severity: "warning",
          path: `$.tools[${i}].parameters[${j}].description`,
          message: `the parameter ${p.name} of ${tool.name} still has a placeholder description (${JSON.stringify(p.description)})`,
          hint: "write what the parameter means: the model reads this to fill it in",
        });
      }
    });
  });
  return out;
}
