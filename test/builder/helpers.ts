/** Shared by the build tests: one runtime cache for every test file, real scaffolded projects in temp folders. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateManifest, writeOutputs } from "../../src/manifest/index.js";
import type { PackageManager } from "../../src/project/index.js";
import { makeSpec, scaffold, type ProjectAnswers } from "../../src/scaffold/index.js";

/** The runtimes are fetched once per machine and reused by every test file and run. */
process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");

/**
 * A project as a user gets it from `create-executa --no-install --no-git`, in a fresh temp folder:
 * the real template, runtime and generated manifest.json. Returns the project folder.
 */
export async function scaffoldProject(
  lang: "ts" | "python" | "go",
  name: string,
  answers: ProjectAnswers = {},
  packageManager?: PackageManager,
): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), `executa-build-${lang}-`)), name);
  await scaffold({
    targetDir: dir,
    spec: makeSpec({ ...answers, lang, name }),
    install: false,
    git: false,
    quiet: true,
    ...(packageManager && { packageManager }),
  });
  return dir;
}

/** Regenerates manifest.json and the bindings after a test edits the tools, as `executa manifest` does. */
export async function regenerateManifest(dir: string): Promise<void> {
  const generated = await generateManifest(dir);
  const errors = generated.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(`manifest generation failed: ${JSON.stringify(errors)}`);
  await writeOutputs(dir, generated.outputs);
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** The official CycloneDX 1.6 JSON schema's verdict on an SBOM file (null when it is valid). */
export async function sbomSchemaErrors(path: string): Promise<unknown> {
  const { Validation, Spec } = await import("@cyclonedx/cyclonedx-library");
  return new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(readFileSync(path, "utf8"));
}
