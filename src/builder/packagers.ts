/**
 * One packager per language and runtime: each makes the artifact of one target at a temporary
 * path (one executable, or for PyInstaller's one-folder layout a folder holding `bin/`) and says
 * what went into it.
 */
import { chmodSync, copyFileSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { which } from "../common/exec.js";
import type { StepOutcome } from "../common/term.js";
import { goEntryArgs, pythonEntry, readPyProject, type PythonEntry } from "../project/index.js";
import { formatDiagnostic, type Diagnostic, type PlatformKey } from "../protocol/index.js";
import { bundle } from "../bundle/index.js";
import { bunCompile } from "./bun.js";
import { goBuild, goBuildTags, goVersion } from "./go.js";
import { fetchPackageFiles } from "./npm-fetch.js";
import type { BuildProject as Project } from "./project.js";
import { checkDeclaredDependencies } from "./python-deps.js";
import { checkPythonTargets, pyinstallerBuild, pyinstallerWorkPath, pythonTool, type PythonLayout } from "./python.js";
import {
  cpython,
  goBuildInfo,
  goStdlib,
  jsRuntime,
  npmComponents,
  pythonPackages,
  type SbomComponent,
} from "./sbom/index.js";
import { injectSea, makeSeaBlob } from "./sea.js";
import { sourceMappedMain } from "./sea-loader.js";
import { snapshotEntrySource } from "./snapshot.js";
import { artifactName, BUN_VERSION, bunTargetFor, NODE_VERSION, nodeRuntimeFor } from "./targets/index.js";
import { writeAtomic } from "./write-atomic.js";

export type Step = <T>(label: string, work: () => Promise<T>, outcome?: (result: T) => StepOutcome) => Promise<T>;

export interface Built {
  /** `prebuilt`: a binary plugin's own executable, packaged as it is. */
  runtime: "node-sea" | "bun" | "go" | "pyinstaller" | "prebuilt";
  runtimeVersion: string;
  /** PyInstaller's layout; a one-folder artifact is a folder with `bin/<name>` and `bin/_internal/`. */
  layout?: PythonLayout;
  codeCache?: boolean;
  snapshot?: boolean;
  /** What the artifact holds, for the SBOM. */
  components: SbomComponent[];
}

export type Packager = (key: PlatformKey, tempOut: string) => Promise<Built>;

export interface NodeOptions {
  snapshot: boolean;
  /** V8 code cache in the host target's blob: faster start, but not byte for byte reproducible. */
  codeCache: boolean;
}

/** The bundle's warnings, as build notes. */
function noteWarnings(warnings: Diagnostic[], notes: string[]): void {
  for (const warning of warnings) if (!notes.includes(formatDiagnostic(warning))) notes.push(formatDiagnostic(warning));
}

export async function nodePackager(
  project: Project,
  targets: PlatformKey[],
  host: PlatformKey,
  work: string,
  options: NodeOptions,
  step: Step,
  notes: string[],
): Promise<Packager> {
  const runtimes = targets.map((k) => nodeRuntimeFor(k));
  const hostRuntime = nodeRuntimeFor(host);
  const [hostNode, ...fetched] = await step(`fetch Node ${NODE_VERSION} runtimes`, () =>
    fetchPackageFiles([hostRuntime, ...runtimes].map((r) => ({ pkg: r.pkg, version: r.version, file: r.binary }))),
  );
  const { code, inputs, warnings } = await step("bundle with esbuild", () =>
    options.snapshot
      ? bundle({ projectDir: project.dir, entrySource: snapshotEntrySource(project.dir) })
      : bundle({ projectDir: project.dir, ...(project.entry && { entry: project.entry }) }),
  );
  noteWarnings(warnings, notes);
  const packages = npmComponents(project.dir, inputs);
  const blobs = new Map<boolean, Promise<Buffer>>();
  const blobFor = (withCache: boolean) => {
    if (!blobs.has(withCache)) {
      // A code cache or a startup snapshot holds the main script compiled: there the bundle is the main script, unmapped.
      const main = withCache || options.snapshot ? { code } : sourceMappedMain(code);
      blobs.set(
        withCache,
        makeSeaBlob({
          hostNode: hostNode!.path,
          ...main,
          workDir: work,
          useCodeCache: withCache,
          useSnapshot: options.snapshot,
          label: withCache ? "host" : "portable",
        }),
      );
    }
    return blobs.get(withCache)!;
  };
  return async (key, tempOut) => {
    const withCache = key === host && options.codeCache && !options.snapshot;
    const i = targets.indexOf(key);
    await injectSea(fetched[i]!, await blobFor(withCache), key, tempOut, artifactName(project.name, key), work);
    const runtime = jsRuntime({
      runtime: "node",
      version: NODE_VERSION,
      pkg: runtimes[i]!.pkg,
      integrity: fetched[i]!.integrity,
    });
    return {
      runtime: "node-sea",
      runtimeVersion: NODE_VERSION,
      codeCache: withCache,
      snapshot: options.snapshot,
      components: [runtime, ...packages],
    };
  };
}

export async function bunPackager(
  project: Project,
  targets: PlatformKey[],
  host: PlatformKey,
  work: string,
  step: Step,
  notes: string[],
): Promise<Packager> {
  const bunTargets = targets.map((k) => bunTargetFor(k));
  const wanted = [bunTargetFor(host), ...bunTargets];
  const [bun, ...fetched] = await step(`fetch Bun ${BUN_VERSION} runtimes`, () =>
    fetchPackageFiles(wanted.map((b) => ({ pkg: b.pkg, version: b.version, file: b.binary }))),
  );
  const { code, inputs, warnings } = await step("bundle with esbuild", () =>
    bundle({ projectDir: project.dir, ...(project.entry && { entry: project.entry }) }),
  );
  noteWarnings(warnings, notes);
  const packages = npmComponents(project.dir, inputs);
  const entry = join(work, "bundle.cjs");
  writeAtomic(entry, code);
  return async (key, tempOut) => {
    const i = targets.indexOf(key);
    await bunCompile({
      bun: bun!.path,
      entry,
      target: bunTargets[i]!.target,
      runtimePath: fetched[i]!.path,
      outFile: tempOut,
      key,
      identifier: artifactName(project.name, key),
    });
    const runtime = jsRuntime({
      runtime: "bun",
      version: BUN_VERSION,
      pkg: bunTargets[i]!.pkg,
      integrity: fetched[i]!.integrity,
    });
    return { runtime: "bun", runtimeVersion: BUN_VERSION, components: [runtime, ...packages] };
  };
}

export async function goPackager(project: Project): Promise<Packager> {
  const version = await goVersion();
  const sources = project.entry ? goEntryArgs(project.dir, project.entry) : ["."];
  const tags = goBuildTags(project.manifest.host_capabilities);
  return async (key, tempOut) => {
    await goBuild(project.dir, key, tempOut, sources, tags);
    const info = await goBuildInfo(tempOut, project.dir);
    return {
      runtime: "go",
      runtimeVersion: version,
      components: [goStdlib(info.goVersion || version), ...info.modules],
    };
  };
}

export async function pythonPackager(
  project: Project,
  targets: PlatformKey[],
  host: PlatformKey,
  work: string,
  layout: PythonLayout,
): Promise<Packager> {
  checkPythonTargets(targets, host);
  const tool = await pythonTool(project.dir);
  await checkDeclaredDependencies(project.dir, tool.python);
  const entry: PythonEntry = project.entry
    ? pythonEntry(project.dir, project.entry)
    : { kind: "package", name: project.pyModule! };
  const declared = (readPyProject(join(project.dir, "pyproject.toml"))?.dependencies ?? []).map(
    (r) => /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(r)?.[1] ?? r,
  );
  return async (_key, tempOut) => {
    const built = await pyinstallerBuild({
      tool,
      projectDir: project.dir,
      entry,
      name: project.name,
      layout,
      workDir: work,
      outDir: join(work, "out"),
    });
    if (layout === "onefile") {
      renameSync(built, tempOut);
    } else {
      // The launcher finds `_internal/` beside itself, so the whole folder becomes bin/.
      mkdirSync(tempOut);
      renameSync(built, join(tempOut, "bin"));
    }
    const packages = await pythonPackages(tool.python, pyinstallerWorkPath(work), declared);
    return {
      runtime: "pyinstaller",
      runtimeVersion: tool.pyinstallerVersion,
      layout,
      components: [cpython(tool.pythonVersion), ...packages],
    };
  };
}

/**
 * A binary plugin: its own executable, for the one platform its header names, copied as it is
 * (no source to rebuild it from). A Go binary's build info gives the SBOM its modules.
 */
export async function prebuiltPackager(project: Project): Promise<Packager> {
  const file = join(project.dir, project.entry!);
  const info = which("go") ? await goBuildInfo(file).catch(() => undefined) : undefined;
  return async (_key, tempOut) => {
    copyFileSync(file, tempOut);
    chmodSync(tempOut, 0o755);
    const components = info?.goVersion ? [goStdlib(info.goVersion), ...info.modules] : [];
    return { runtime: "prebuilt", runtimeVersion: info?.goVersion ? `go${info.goVersion}` : "unknown", components };
  };
}
