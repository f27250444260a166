/** Shared by the build tests: one runtime cache for every test file, real scaffolded projects in temp folders. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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

/** The parts of a CycloneDX SBOM the tests read. */
export interface Bom {
  specVersion: string;
  serialNumber: string;
  metadata: {
    component: { name: string; version: string; "bom-ref": string; hashes?: Array<{ alg: string; content: string }> };
  };
  components: Array<{
    type: string;
    name: string;
    version?: string;
    purl: string;
    "bom-ref": string;
    hashes?: Array<{ alg: string; content: string }>;
    licenses?: Array<{ license?: { id?: string; name?: string }; expression?: string }>;
    properties?: Array<{ name: string; value: string }>;
  }>;
  dependencies: Array<{ ref: string; dependsOn?: string[] }>;
}

/** Each bom-ref's outgoing edges. */
export const edgesOf = (bom: Bom) => Object.fromEntries(bom.dependencies.map((d) => [d.ref, d.dependsOn ?? []]));

/** A Python distribution installed by hand into a site-packages folder: what pip leaves, minus pip. */
export function installDistribution(
  sitePackages: string,
  name: string,
  version: string,
  metadata: string[],
  init = "",
): void {
  mkdirSync(join(sitePackages, name), { recursive: true });
  writeFileSync(join(sitePackages, name, "__init__.py"), init);
  const info = join(sitePackages, `${name}-${version}.dist-info`);
  mkdirSync(info, { recursive: true });
  writeFileSync(
    join(info, "METADATA"),
    ["Metadata-Version: 2.1", `Name: ${name}`, `Version: ${version}`, ...metadata, ""].join("\n"),
  );
  writeFileSync(
    join(info, "RECORD"),
    `${name}/__init__.py,,\n${name}-${version}.dist-info/METADATA,,\n${name}-${version}.dist-info/RECORD,,\n`,
  );
}
