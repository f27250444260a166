/**
 * `executa build`: manifest check -> per language artifacts for every target -> archives, `.sha256`
 * files, SHA256SUMS, CycloneDX SBOM, build.json (and binary_urls in executa.json with a base URL)
 * -> verification; with `reproducibleCheck`, a second build compared byte for byte.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { typeCheck } from "../bundle/index.js";
import { ExecutaError } from "../common/errors.js";
import { handleSignals, keep, makeTempDir, removeNow, removeOnExit } from "../common/cleanup.js";
import type { FlagValues } from "../common/options.js";
import { PACKAGE_JSON } from "../common/package-info.js";
import type { StepOutcome } from "../common/term.js";
import { checkOutputFolder, nativePlatformOf } from "../project/index.js";
import { PLATFORM_KEYS, type PlatformKey } from "../protocol/index.js";
import type { BUILD_FLAGS } from "./flags.js";
import { checkManifestBeforeBuild } from "./manifest-check.js";
import {
  artifactEntries,
  binaryUrls,
  entrypointIn,
  factsOf,
  fixModes,
  writeArchive,
  writeBinaryUrls,
  writeChecksumFile,
  writeSums,
  type ArchiveFacts,
  type BinaryUrl,
  type FileFacts,
} from "./outputs.js";
import {
  bunPackager,
  goPackager,
  nodePackager,
  prebuiltPackager,
  pythonPackager,
  type Built,
  type Packager,
  type Step,
} from "./packagers.js";
import { readProject, type BuildLanguage, type BuildProject as Project } from "./project.js";
import type { PythonLayout } from "./python.js";
import { elsewhere } from "./elsewhere.js";
import { PieceFile } from "./piece-file.js";
import { compareBuilds, type Difference } from "./reproducible.js";
import { writeSboms } from "./sbom/index.js";
import { artifactName, buildTargets, hostKey, NODE_VERSION, parseTargets } from "./targets/index.js";
import { launchFor, verifyLaunch, wineGap } from "./verify.js";
import { tempPathFor, writeAtomic } from "./write-atomic.js";

export { BuildError } from "../bundle/index.js";
export { bundle } from "../bundle/index.js";
export { checkAdhocSignature } from "./macho-sign.js";
export { goBuild, goBuildTags } from "./go.js";
export { readProject } from "./project.js";
export { BUILD_FLAGS } from "./flags.js";
export { NODE_VERSION, buildTargets, workflowMatrix } from "./targets/index.js";
export type { PythonLayout } from "./python.js";
export { describeDifference, type Difference } from "./reproducible.js";
export { launchFor, verifyLaunch } from "./verify.js";
export { untar, unzip } from "./archive/index.js";

/** What to build: the project, `executa build`'s flags (src/builder/flags.ts) by their camelCase names, and how to show steps. */
export type BuildOptions = Omit<FlagValues<typeof BUILD_FLAGS>, "target"> & {
  projectDir: string;
  /** `--target`: keys, comma lists or `all` (a string too, for callers of this API); none means this machine's. */
  target?: string | readonly string[];
  /** Runs one labelled step (the CLI shows progress through it); `outcome` says how a finished step went. */
  step?: Step;
};

export interface VerifyStatus {
  status: "passed" | "failed" | "skipped";
  checks?: "conform";
  reason?: string;
  failures?: string[];
}

export interface TargetReport extends FileFacts {
  platform: PlatformKey;
  runtime: Built["runtime"];
  runtime_version: string;
  /** Python: `onedir` artifacts are a folder; `file` is its executable. */
  layout?: PythonLayout;
  code_cache?: boolean;
  snapshot?: boolean;
  archive: ArchiveFacts & { checksum_file: string };
  verify: VerifyStatus;
}

export interface ReproducibleReport {
  identical: boolean;
  /** What the second build changed: the project's folder (a copy), the time zone, the umask, the build caches. */
  conditions: { project_dir: string; time_zone: string; umask: string; fresh_caches: string[] };
  /** Files compared (everything the build writes but build.json, which holds the verification). */
  files: number;
  seconds: number;
  differences: Difference[];
  /** The second build's output folder, kept (with the copy of the project) when it differs. */
  second_dir?: string;
}

export interface BuildReport {
  ok: boolean;
  name: string;
  version: string;
  language: BuildLanguage;
  dist: string;
  manifest_check: "checked";
  targets: TargetReport[];
  /** CycloneDX files written into dist. */
  sbom: string[];
  binary_urls: Record<string, BinaryUrl>;
  notes: string[];
  reproducible?: ReproducibleReport;
}

async function verifyTarget(
  key: PlatformKey,
  host: PlatformKey,
  binary: string,
  project: Project,
  serial: boolean,
): Promise<VerifyStatus> {
  const found = launchFor(key, host, binary);
  if ("skip" in found) return { status: "skipped", reason: found.skip };
  const launch = { ...found, serial };
  const result = await verifyLaunch(launch, project.manifestText, project.describeName);
  const gap = launch.underWine && !result.ok ? wineGap(result.failures) : undefined;
  if (gap) return { status: "skipped", reason: gap };
  return {
    status: result.ok ? "passed" : "failed",
    checks: result.checks,
    ...(!result.ok && { failures: result.failures }),
  };
}

function verifyOutcome(v: VerifyStatus): StepOutcome {
  if (v.status === "passed") return { status: "ok" };
  return v.status === "skipped"
    ? { status: "skipped", ...(v.reason && { note: v.reason }) }
    : { status: "failed", note: `${v.failures?.length ?? 0} failed` };
}

const plainStep: Step = (_label, work) => work();

interface Plan {
  project: Project;
  options: BuildOptions;
  host: PlatformKey;
  targets: PlatformKey[];
  /** Said after the build (the bundle's warnings among them). */
  notes: string[];
}

interface Output {
  targets: TargetReport[];
  archives: Map<PlatformKey, ArchiveFacts>;
  sbom: string[];
  /** Every file written, relative to the output folder. */
  written: string[];
  /** What SHA256SUMS lists (build.json joins them once written). */
  summed: FileFacts[];
}

function makePackager(plan: Plan, work: string, step: Step): Promise<Packager> {
  const { project, options, host, targets, notes } = plan;
  if (project.language === "binary") return prebuiltPackager(project);
  if (project.language === "go") return goPackager(project);
  if (project.language === "python")
    return pythonPackager(project, targets, host, work, options.pythonLayout ?? "onedir");
  if (options.runtime === "bun") return bunPackager(project, targets, host, work, step, notes);
  return nodePackager(
    project,
    targets,
    host,
    work,
    { snapshot: Boolean(options.snapshot), codeCache: Boolean(options.codeCache) },
    step,
    notes,
  );
}

/** Every file under `path` (itself when it is a file), relative to `root`. */
function filesUnder(root: string, path: string): string[] {
  if (!statSync(path).isDirectory()) return [relative(root, path).split(sep).join("/")];
  return readdirSync(path)
    .sort()
    .flatMap((entry) => filesUnder(root, join(path, entry)));
}

/** Builds every target of the plan into `out`. */
async function buildInto(plan: Plan, out: string, verify: boolean, step: Step): Promise<Output> {
  const { project, host } = plan;
  const work = makeTempDir("executa-build-");
  try {
    const packager = await makePackager(plan, work, step);
    mkdirSync(out, { recursive: true });
    const targets: TargetReport[] = [];
    const archives = new Map<PlatformKey, ArchiveFacts>();
    const contents: Array<{ platform: PlatformKey; archive: ArchiveFacts; components: Built["components"] }> = [];
    const written: string[] = [];
    for (const key of plan.targets) {
      const path = join(out, artifactName(project.name, key));
      const temp = removeOnExit(tempPathFor(path));
      let built: Built;
      try {
        built = await step(`build ${key}`, async () => {
          const result = await packager(key, temp);
          rmSync(path, { recursive: true, force: true });
          renameSync(temp, path);
          return result;
        });
      } finally {
        removeNow(temp);
      }
      const folder = built.layout === "onedir";
      const executable = folder ? join(path, entrypointIn(project.name, key)) : path;
      const pieces = new PieceFile(`${built.runtime}-${built.runtimeVersion}-${key}`);
      const archive = writeArchive(
        out,
        project.name,
        key,
        artifactEntries(path, project.name, key),
        project.manifest,
        pieces,
      );
      pieces.save();
      const checksumFile = writeChecksumFile(out, archive);
      written.push(...filesUnder(out, path), archive.file, checksumFile);
      archives.set(key, archive);
      contents.push({ platform: key, archive, components: built.components });
      const verified: VerifyStatus = !verify
        ? { status: "skipped", reason: "--no-verify" }
        : await step(
            `verify ${key}`,
            () => verifyTarget(key, host, executable, project, built.layout === "onefile"),
            verifyOutcome,
          );
      targets.push({
        platform: key,
        ...factsOf(executable, relative(out, executable).split(sep).join("/")),
        runtime: built.runtime,
        runtime_version: built.runtimeVersion,
        ...(built.layout && { layout: built.layout }),
        ...(built.codeCache !== undefined && { code_cache: built.codeCache }),
        ...(built.snapshot !== undefined && { snapshot: built.snapshot }),
        archive: { ...archive, checksum_file: checksumFile },
        verify: verified,
      });
      await handleSignals();
    }
    const sbom = writeSboms(
      out,
      {
        name: project.name,
        version: project.manifest.version,
        ...(project.manifest.license && { license: project.manifest.license }),
        ...(project.manifest.description && { description: project.manifest.description }),
        tool: { name: PACKAGE_JSON.name, version: PACKAGE_JSON.version },
      },
      contents,
    );
    const executables = targets.filter((t) => t.layout !== "onedir");
    const summed = [...executables, ...targets.map((t) => t.archive), ...sbom.map((file) => factsOf(join(out, file)))];
    writeSums(out, summed);
    written.push(...sbom, "SHA256SUMS");
    fixModes(out, written);
    return { targets, archives, sbom, written, summed };
  } finally {
    removeNow(work);
  }
}

/** Builds again from a copy of the project in another folder, under other conditions, and compares every output. */
async function checkReproducible(
  plan: Plan,
  first: string,
  written: readonly string[],
  step: Step,
): Promise<ReproducibleReport> {
  const started = performance.now();
  const root = makeTempDir("executa-reproducible-");
  const second = join(root, "dist");
  const again: Step = (label, work, outcome) => step(`again, elsewhere: ${label}`, work, outcome);
  const { output, conditions } = await elsewhere(plan.project.dir, first, root, async (conditions) => {
    const copy: Plan = {
      ...plan,
      project: readProject(conditions.projectDir),
      options: { ...plan.options, projectDir: conditions.projectDir },
    };
    return { output: await buildInto(copy, second, false, again), conditions };
  });
  const files = [...new Set([...written, ...output.written])].sort();
  const differences = compareBuilds(first, second, files);
  const identical = differences.length === 0;
  if (identical) removeNow(root);
  else keep(root);
  return {
    identical,
    conditions: {
      project_dir: conditions.projectDir,
      time_zone: conditions.timeZone,
      umask: conditions.umask,
      fresh_caches: Object.keys(conditions.freshCaches),
    },
    files: files.length,
    seconds: Math.round(performance.now() - started) / 1000,
    differences,
    ...(!identical && { second_dir: second }),
  };
}

/**
 * A binary plugin builds for the one platform its executable is for: there is no source to build
 * another from, so packaging it (archive, checksums, SBOM, verification) is what build can do.
 */
function prebuiltTargets(project: Project, spec: BuildOptions["target"]): PlatformKey[] {
  const platform = nativePlatformOf(join(project.dir, project.entry!));
  if (!platform) {
    throw new ExecutaError(
      `${project.entry} is not a native executable for one of Anna's platforms (${PLATFORM_KEYS.join(", ")})`,
      {
        hint: 'a binary plugin is packaged as it is: point executa.json "entry" at the built executable (ELF, Mach-O or PE)',
      },
    );
  }
  const wanted = [spec].flat().filter(Boolean).length ? parseTargets(spec, [platform]) : [platform];
  const others = wanted.filter((t) => t !== platform);
  if (others.length) {
    throw new ExecutaError(
      `${project.entry} is a ${platform} executable, so it builds for ${platform} only, not ${others.join(", ")}`,
      {
        hint: `drop --target (or use --target ${platform}); for another platform, build the plugin's executable there and package that one`,
      },
    );
  }
  return wanted;
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const step = options.step ?? plainStep;
  const project = readProject(options.projectDir);
  const dist = options.outDir ? resolve(options.outDir) : join(project.dir, "dist");
  checkOutputFolder(project.dir, dist);
  const runtime = options.runtime ?? "node";
  if (project.language !== "ts" && (runtime !== "node" || options.snapshot || options.codeCache)) {
    throw new ExecutaError(
      `--runtime, --snapshot and --code-cache apply to TypeScript plugins only, not ${project.language}`,
    );
  }
  if (project.language !== "python" && options.pythonLayout) {
    throw new ExecutaError(`--python-layout applies to Python plugins only, not ${project.language}`);
  }
  if (runtime === "bun" && (options.snapshot || options.codeCache)) {
    throw new ExecutaError(
      "--snapshot and --code-cache are Node single-executable features; they do not combine with --runtime bun",
    );
  }
  if (project.language === "ts") {
    await step(
      "type-check with tsc",
      () => typeCheck(project.dir, "nothing was built"),
      (check) =>
        check.status === "checked"
          ? { status: "ok" }
          : { status: "skipped", note: "note" in check ? check.note : "no tsconfig.json" },
    );
  }
  await checkManifestBeforeBuild(project.dir);
  const host = hostKey();
  const targets =
    project.language === "binary"
      ? prebuiltTargets(project, options.target)
      : parseTargets(options.target, buildTargets(project.language));
  if (options.snapshot && targets.some((t) => t !== host)) {
    throw new ExecutaError(`--snapshot builds only for this machine's platform (${host})`, {
      hint: `use --snapshot --target ${host}, and build the other targets without --snapshot`,
    });
  }
  const notes: string[] = [];
  if (project.language === "ts" && [options.target].flat().join(",").split(",").includes("all")) {
    notes.push(
      `linux-armv7l is left out: ${runtime === "bun" ? "Bun" : `Node ${NODE_VERSION}`} has no linux-armv7l build on the npm registry`,
    );
  }
  const plan: Plan = { project, options: { ...options, runtime }, host, targets, notes };
  const output = await buildInto(plan, dist, options.verify !== false, step);
  const reproducible = options.reproducibleCheck
    ? await checkReproducible(plan, dist, output.written, step)
    : undefined;
  const urls = binaryUrls(output.archives, options.baseUrl);
  if (options.baseUrl) {
    if (!project.executaJson)
      throw new ExecutaError("--base-url writes executa.json, and this project has none", {
        hint: "run the build without --base-url, or add executa.json",
      });
    writeBinaryUrls(project.dir, project.name, urls);
  }
  const report: BuildReport = {
    ok: output.targets.every((t) => t.verify.status !== "failed") && (reproducible?.identical ?? true),
    name: project.name,
    version: project.manifest.version,
    language: project.language,
    dist,
    manifest_check: "checked",
    targets: output.targets,
    sbom: output.sbom,
    binary_urls: urls,
    notes,
    ...(reproducible && { reproducible }),
  };
  const { ok: _ok, dist: _dist, reproducible: _reproducible, ...stable } = report;
  writeAtomic(join(dist, "build.json"), JSON.stringify(stable, null, 2) + "\n", 0o644);
  // After the reproducible check, which compares the outputs without build.json (it holds this machine's verification).
  writeSums(dist, [...output.summed, factsOf(join(dist, "build.json"))]);
  fixModes(dist, ["build.json", "SHA256SUMS"]);
  return report;
}
