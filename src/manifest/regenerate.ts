/** `executa manifest` as a step of another command (create, upgrade): generate, then write what changed. */
import { formatDiagnostic } from "../protocol/index.js";
import { generateManifest } from "./generate.js";
import { writeOutputs } from "./outputs.js";

export type Regenerated = { ok: true; tools: number; written: string[] } | { ok: false; message: string };

/** Regenerates manifest.json and the bindings in `dir`; a project whose code does not generate gets its errors, nothing written. */
export async function regenerateManifest(dir: string): Promise<Regenerated> {
  try {
    const generated = await generateManifest(dir);
    const errors = generated.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) return { ok: false, message: errors.map(formatDiagnostic).join("; ") };
    return { ok: true, tools: generated.manifest.tools.length, written: await writeOutputs(dir, generated.outputs) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
