/** `executa manifest --check` before a build: a stale describe must never ship. */
import { ExecutaError, ExitCode } from "../common/errors.js";
import { checkManifest } from "../manifest/index.js";
import { formatDiagnostic } from "../protocol/index.js";

/** Throws (exit 1 on drift, 2 when the manifest cannot be generated) unless manifest.json matches the source. */
export async function checkManifestBeforeBuild(projectDir: string): Promise<"checked"> {
  const result = await checkManifest(projectDir);
  if (result.status === "in-sync") return "checked";
  if (result.status === "error") {
    const errors = result.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic);
    throw new ExecutaError(
      `the manifest cannot be generated from the source, so nothing was built:\n  ${errors.join("\n  ")}`,
      {
        hint: "fix the errors above (`executa manifest` shows them), then build again",
      },
    );
  }
  const what = {
    missing: "is missing",
    drift: "is out of date with the source",
    "non-canonical": "is not in canonical form",
  }[result.status];
  const changes = result.changes.map((c) => `\n  - ${c.message}`).join("");
  throw new ExecutaError(
    `${result.files.join(" and ")} ${what}; the build would ship a stale describe, so nothing was built${changes}`,
    {
      hint: "run `executa manifest` and commit manifest.json, then build again",
      exitCode: ExitCode.Failed,
    },
  );
}
