/**
 * `executa build`: manifest check -> per language executables for every target -> archives,
 * SHA256SUMS, build.json (and binary_urls in executa.json with a base URL) -> verification.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import type { StepOutcome } from "../common/term.js";
import { PLATFORM_KEYS, type PlatformKey } from "../protocol/index.js";
import { bundle } from "../bundle/index.js";
import { bunCompile } from "./bun.js";
import { goBuild, goVersion } from "./go.js";
import { checkManifestBeforeBuild } from "./manifest-check.js";
import { fetchPackageFiles } from "./npm-fetch.js";
import { binaryUrls, factsOf, writeArchive, writeBinaryUrls, writeSums, type ArchiveFacts, type BinaryUrl, type FileFacts } from "./outputs.js";
import { readProject, type BuildProject as Project, type Language } from "./project.js";
import { checkPythonTargets, pyinstallerBuild, pyinstallerVersion, pythonCommand } from "./python.js";
import { injectSea, makeSeaBlob } from "./sea.js";
import { snapshotEntrySource } from "./snapshot.js";
import { artifactName, BUN_VERSION, bunTargetFor, hostKey, NODE_VERSION, nodeRuntimeFor, parseTargets } from "./targets.js";
import { launchFor, verifyLaunch, wineGap } from "./verify.js";
import { tempPathFor, writeAtomic } from "./write-atomic.js";

export { BuildError } from "../bundle/index.js";
export { bundle } from "../bundle/index.js";
export { adhocSign, checkAdhocSignature } from "./macho-sign.js";
export { cacheDir } from "./cache.js";
export { BUN_VERSION, NODE_VERSION, parseTargets } from "./targets.js";
export { launchFor, verifyLaunch, type Launch, type VerifyResult } from "./verify.js";
export { untar, unzip } from "./archive/index.js";

export type Runtime = "node" | "bun";

export interface BuildOptions {
  projectDir: string;
  /** `--target`: keys, comma lists, `all`; none means the host's key. */
  targets?: string | readonly string[];
  runtime?: Runtime;
  snapshot?: boolean;
  /** Run the artifacts that can run here (default true). */
  verify?: boolean;
  baseUrl?: string;
  /** Skip `executa manifest --check` (for callers that have just generated manifest.json). */
  skipManifestCheck?: boolean;
  /** Default `<project>/dist`. */
  outDir?: string;
  /** Runs one labelled step (the CLI shows progress through it); `outcome` says how a finished step went. */
  step?: <T>(label: string, work: () => Promise<T>, outcome?: (result: T) => StepOutcome) => Promise<T>;
}

export interface VerifyStatus {
  status: "passed" | "failed" | "skipped";
  checks?: "conform";
  reason?: string;
  failures?: string[];
}

export interface TargetReport extends FileFacts {
  platform: PlatformKey;
  runtime: "node-sea" | "bun" | "go" | "pyinstaller";
  runtime_version: string;
  code_cache?: boolean;
  snapshot?: boolean;
  archive: ArchiveFacts;
  verify: VerifyStatus;
}

export interface BuildReport {
  ok: boolean;
  name: string;
  version: string;
  language: Language;
  dist: string;
  manifest_check: "checked" | "skipped";
  targets: TargetReport[];
  binary_urls: Record<string, BinaryUrl>;
  notes: string[];
}

/** The targets `all` means for a language and runtime. */
function allTargets(language: Language, runtime: Runtime): PlatformKey[] {
  if (language === "go") return [...PLATFORM_KEYS];
  return PLATFORM_KEYS.filter((k) => k !== "linux-armv7l" || language === "python");
}

interface Built {
  runtime: TargetReport["runtime"];
  runtimeVersion: string;
  codeCache?: boolean;
  snapshot?: boolean;
}

type Packager = (key: PlatformKey, tempOut: string) => Promise<Built>;

async function nodePackager(project: Project, targets: PlatformKey[], host: PlatformKey, work: string, snapshot: boolean, step: BuildOptions["step"] & {}): Promise<Packager> {
  const runtimes = targets.map((k) => nodeRuntimeFor(k));
  const hostRuntime = nodeRuntimeFor(host);
  const [hostNode, ...paths] = await step(`fetch Node ${NODE_VERSION} runtimes`, () =>
    fetchPackageFiles([hostRuntime, ...runtimes].map((r) => ({ pkg: r.pkg, version: r.version, file: r.binary }))),
  );
  const { code } = await step("bundle with esbuild", () =>
    snapshot ? bundle({ projectDir: project.dir, entrySource: snapshotEntrySource(project.dir) }) : bundle({ projectDir: project.dir }),
  );
  const blobs = new Map<boolean, Promise<Buffer>>();
  const blobFor = (forHost: boolean) => {
    if (!blobs.has(forHost)) {
      blobs.set(forHost, makeSeaBlob({ hostNode: hostNode!, code, workDir: work, useCodeCache: forHost, useSnapshot: snapshot, label: forHost ? "host" : "portable" }));
    }
    return blobs.get(forHost)!;
  };
  return async (key, tempOut) => {
    const forHost = key === host;
    const blob = await blobFor(forHost);
    await injectSea(paths[targets.indexOf(key)]!, blob, key, tempOut, artifactName(project.name, key));
    return { runtime: "node-sea", runtimeVersion: NODE_VERSION, codeCache: forHost && !snapshot, snapshot };
  };
}

async function bunPackager(project: Project, targets: PlatformKey[], host: PlatformKey, work: string, step: BuildOptions["step"] & {}): Promise<Packager> {
  const hostBun = bunTargetFor(host);
  const wanted = [hostBun, ...targets.map((k) => bunTargetFor(k))];
  const [bunPath, ...paths] = await step(`fetch Bun ${BUN_VERSION} runtimes`, () =>
    fetchPackageFiles(wanted.map((b) => ({ pkg: b.pkg, version: b.version, file: b.binary }))),
  );
  const { code } = await step("bundle with esbuild", () => bundle({ projectDir: project.dir }));
  const entry = join(work, "bundle.cjs");
  writeAtomic(entry, code);
  return async (key, tempOut) => {
    await bunCompile({ bun: bunPath!, entry, target: bunTargetFor(key).target, runtimePath: paths[targets.indexOf(key)]!, outFile: tempOut, key, identifier: artifactName(project.name, key) });
    return { runtime: "bun", runtimeVersion: BUN_VERSION };
  };
}

async function goPackager(project: Project): Promise<Packager> {
  const version = await goVersion();
  return async (key, tempOut) => {
    await goBuild(project.dir, key, tempOut);
    return { runtime: "go", runtimeVersion: version };
  };
}

async function pythonPackager(project: Project, targets: PlatformKey[], host: PlatformKey, work: string): Promise<Packager> {
  checkPythonTargets(targets, host);
  const python = pythonCommand();
  const version = await pyinstallerVersion(python, project.dir);
  return async (_key, tempOut) => {
    const built = await pyinstallerBuild({ python, projectDir: project.dir, pyModule: project.pyModule!, name: project.name, workDir: work, outDir: join(work, "out") });
    renameSync(built, tempOut);
    return { runtime: "pyinstaller", runtimeVersion: version };
  };
}

async function verifyTarget(key: PlatformKey, host: PlatformKey, binary: string, manifestText: string): Promise<VerifyStatus> {
  const launch = launchFor(key, host, binary);
  if ("skip" in launch) return { status: "skipped", reason: launch.skip };
  const result = await verifyLaunch(launch, manifestText);
  const gap = launch.underWine && !result.ok ? wineGap(result.failures) : undefined;
  if (gap) return { status: "skipped", reason: gap };
  return { status: result.ok ? "passed" : "failed", checks: result.checks, ...(!result.ok && { failures: result.failures }) };
}

function verifyOutcome(v: VerifyStatus): StepOutcome {
  if (v.status === "passed") return { status: "ok" };
  return v.status === "skipped" ? { status: "skipped", ...(v.reason && { note: v.reason }) } : { status: "failed", note: `${v.failures?.length ?? 0} failed` };
}

const plainStep = <T>(_label: string, work: () => Promise<T>) => work();

export async function build(options: BuildOptions): Promise<BuildReport> {
  const step = options.step ?? plainStep;
  const project = readProject(options.projectDir);
  const runtime = options.runtime ?? "node";
  if (project.language !== "ts" && (runtime !== "node" || options.snapshot)) {
    throw new ExecutaError(`--runtime and --snapshot apply to TypeScript plugins only, not ${project.language}`);
  }
  if (runtime === "bun" && options.snapshot) throw new ExecutaError("--snapshot is a Node single-executable feature; it does not combine with --runtime bun");
  const manifestCheck = options.skipManifestCheck ? "skipped" : await checkManifestBeforeBuild(project.dir);
  const host = hostKey();
  const targets = parseTargets(options.targets, allTargets(project.language, runtime));
  if (options.snapshot && targets.some((t) => t !== host)) {
    throw new ExecutaError(`--snapshot builds only for this machine's platform (${host})`, { hint: `use --snapshot --target ${host}, and build the other targets without --snapshot` });
  }
  const notes: string[] = [];
  if (project.language === "ts" && [options.targets].flat().join(",").split(",").includes("all")) {
    notes.push(`linux-armv7l is left out: ${runtime === "bun" ? "Bun" : `Node ${NODE_VERSION}`} has no linux-armv7l build on the npm registry`);
  }
  const dist = options.outDir ?? join(project.dir, "dist");
  mkdirSync(dist, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "executa-build-"));
  try {
    const packager =
      project.language === "go" ? await goPackager(project)
      : project.language === "python" ? await pythonPackager(project, targets, host, work)
      : runtime === "bun" ? await bunPackager(project, targets, host, work, step)
      : await nodePackager(project, targets, host, work, Boolean(options.snapshot), step);
    const reports: TargetReport[] = [];
    const archives = new Map<PlatformKey, ArchiveFacts>();
    for (const key of targets) {
      const file = join(dist, artifactName(project.name, key));
      const temp = tempPathFor(file);
      let built: Built;
      try {
        built = await step(`build ${key}`, async () => {
          const result = await packager(key, temp);
          renameSync(temp, file);
          return result;
        });
      } finally {
        rmSync(temp, { force: true });
      }
      const binary = readFileSync(file);
      const archive = writeArchive(dist, project.name, key, binary, project.manifest);
      archives.set(key, archive);
      const verify: VerifyStatus = options.verify === false
        ? { status: "skipped", reason: "--no-verify" }
        : await step(`verify ${key}`, () => verifyTarget(key, host, file, project.manifestText), verifyOutcome);
      reports.push({
        platform: key,
        ...factsOf(file),
        runtime: built.runtime,
        runtime_version: built.runtimeVersion,
        ...(built.codeCache !== undefined && { code_cache: built.codeCache }),
        ...(built.snapshot !== undefined && { snapshot: built.snapshot }),
        archive,
        verify,
      });
    }
    writeSums(dist, [...reports, ...reports.map((r) => r.archive)]);
    const urls = binaryUrls(archives, options.baseUrl);
    if (options.baseUrl) {
      if (!project.executaJson) throw new ExecutaError("--base-url writes executa.json, and this project has none", { hint: "run the build without --base-url, or add executa.json" });
      writeBinaryUrls(project.dir, project.name, urls);
    }
    const report: BuildReport = {
      ok: reports.every((r) => r.verify.status !== "failed"),
      name: project.name,
      version: project.manifest.version,
      language: project.language,
      dist,
      manifest_check: manifestCheck,
      targets: reports,
      binary_urls: urls,
      notes,
    };
    const { ok: _ok, dist: _dist, ...stable } = report;
    writeAtomic(join(dist, "build.json"), JSON.stringify(stable, null, 2) + "\n");
    return report;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
