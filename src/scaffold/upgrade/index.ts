/**
 * `executa upgrade`: the project's vendored runtime replaced by this toolchain's, file by file.
 * Every refusal happens before anything is written; then the runtime files, the record, and what
 * depends on them (manifest.json, the bindings) are written.
 */
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ExecutaError } from "../../common/errors.js";
import { regenerateManifest, unifiedDiff } from "../../manifest/index.js";
import { RUNTIME_VERSION } from "../../protocol/index.js";
import {
  checkProjectPaths,
  LANGUAGES,
  languagePath,
  loadProject,
  pyModuleOf,
  writeProjectFile,
  type Language,
} from "../../project/index.js";
import { changesBetween, type RuntimeChange } from "./changes.js";
import { inferVersion, planUpgrade, type FileAction, type PlannedFile } from "./plan.js";
import { parseRecord, RECORD_FILE, recordText, type RuntimeRecord } from "./record.js";
import { currentRuntime, hashesOf, knownVersions, type RuntimeHashes } from "./runtime.js";

export { recordOf } from "./record.js";
export { currentRuntime } from "./runtime.js";
export type { RuntimeChange } from "./changes.js";
export type { FileAction } from "./plan.js";

export interface UpgradeOptions {
  dir: string;
  /** Take the new runtime over files the author changed, keeping theirs as `<file>.orig`. */
  force?: boolean;
  /** Work out and report everything; write nothing. */
  dryRun?: boolean;
  /** Only compare the versions (status `outdated` or `up-to-date`). */
  check?: boolean;
  /** Put the unified diff of every file that changes in the result (a changed file's always is). */
  diff?: boolean;
}

export interface UpgradedFile {
  /** Project-relative. */
  path: string;
  action: FileAction;
  /** `conflict` with --force: where the author's copy was kept. */
  orig?: string;
  /** Unified diff of the project's copy against the new runtime's. */
  diff?: string;
}

export type UpgradeStatus = "upgraded" | "up-to-date" | "outdated" | "refused" | "dry-run";

export interface UpgradeResult {
  status: UpgradeStatus;
  dir: string;
  language: Language;
  /** Project-relative runtime folder. */
  runtimeDir: string;
  /** The runtime version the project carries, and this toolchain's. */
  from: number;
  to: number;
  /** How `from` was known: the runtime.lock.json, or the files matched against the versions this toolchain knows (a project from before records). */
  versionFrom: "record" | "files";
  files: UpgradedFile[];
  /** The generated files rewritten (manifest.json, the bindings). */
  regenerated: string[];
  /** The manifest could not be regenerated: why, and the command to run by hand. */
  manifestError?: { message: string; manual: string };
  /** A project from before records, already at this version: its runtime.lock.json was (or, with --dry-run, would be) written. */
  recorded?: boolean;
  /** docs/runtime-changes.md, the sections after `from` up to `to`. */
  changes: RuntimeChange[];
}

interface Carried {
  version: number;
  base: RuntimeHashes;
  versionFrom: UpgradeResult["versionFrom"];
}

function runtimeFolder(dirIn: string): { dir: string; language: Language; runtimeDir: string } {
  const project = loadProject(dirIn);
  const pyModule = project.language === "python" ? pyModuleOf(project) : undefined;
  const runtimeDir = languagePath(LANGUAGES[project.language].runtimeDir, pyModule);
  const absolute = join(project.dir, runtimeDir);
  if (!existsSync(absolute) || !lstatSync(absolute).isDirectory()) {
    throw new ExecutaError(
      `${project.dir} has no vendored Executa runtime (no ${runtimeDir}/): create-executa did not generate it, so there is nothing to upgrade`,
      {
        hint: "executa upgrade updates the runtime create-executa vendors into the projects it scaffolds; a plugin adopted with `executa init` keeps the code it has",
      },
    );
  }
  const inside = relative(realpathSync(project.dir), realpathSync(absolute));
  if (inside.startsWith("..") || inside.startsWith(sep)) {
    throw new ExecutaError(`${runtimeDir} leads outside the project (a link to ${realpathSync(absolute)})`, {
      hint: "replace the link with the runtime folder itself",
    });
  }
  return { dir: project.dir, language: project.language, runtimeDir };
}

/** The runtime folder's files among `paths`: regular files only, and only ones really inside the folder (no link leads out). */
async function readProjectRuntime(absolute: string, paths: Iterable<string>): Promise<Map<string, Buffer>> {
  const root = realpathSync(absolute) + sep;
  const files = new Map<string, Buffer>();
  for (const path of paths) {
    const file = join(absolute, path);
    if (existsSync(file) && lstatSync(file).isFile() && realpathSync(file).startsWith(root))
      files.set(path, await readFile(file));
  }
  return files;
}

/** The project's runtime.lock.json, checked (untrusted); undefined for a project from before records. */
async function readRecord(
  absolute: string,
  runtimeDir: string,
  language: Language,
): Promise<RuntimeRecord | undefined> {
  const recordPath = join(absolute, RECORD_FILE);
  if (!existsSync(recordPath)) return undefined;
  const record = parseRecord(await readFile(recordPath, "utf8"));
  const shown = `${runtimeDir}/${RECORD_FILE}`;
  if (typeof record === "string") {
    throw new ExecutaError(`${shown} ${record}`, {
      hint: `delete ${shown} and executa upgrade works out the version from the runtime's files`,
    });
  }
  if (record.version > RUNTIME_VERSION) {
    throw new ExecutaError(
      `${shown} says runtime version ${record.version}, newer than this create-executa's (${RUNTIME_VERSION})`,
      {
        hint: "run a newer create-executa: the one the project's package.json or workflow names, at its latest version",
      },
    );
  }
  if (!hashesOf(record.version, language)) {
    throw new ExecutaError(
      `${shown} says runtime version ${record.version}, which create-executa never had (it knows ${knownVersions().join(", ")})`,
      {
        hint: `delete ${shown} and executa upgrade works out the version from the runtime's files`,
      },
    );
  }
  return record;
}

/** The version the project carries and its files' hashes then: the record's, or, without one, the version its files match. */
function carried(
  record: RuntimeRecord | undefined,
  project: ReadonlyMap<string, Buffer>,
  runtimeDir: string,
  language: Language,
): Carried {
  if (record) return { version: record.version, base: record.files, versionFrom: "record" };
  const version = inferVersion(
    project,
    knownVersions().map((v) => [v, hashesOf(v, language) ?? {}] as const),
  );
  if (version === undefined) {
    throw new ExecutaError(
      `cannot tell which runtime ${runtimeDir}/ is: it has no ${RECORD_FILE}, and none of its files is one create-executa ever vendored`,
      {
        hint: "executa upgrade only replaces a runtime create-executa wrote; a runtime written by hand stays yours",
      },
    );
  }
  return { version, base: hashesOf(version, language)!, versionFrom: "files" };
}

export async function upgradeRuntime(options: UpgradeOptions): Promise<UpgradeResult> {
  const { dir, language, runtimeDir } = runtimeFolder(options.dir);
  const absolute = join(dir, runtimeDir);
  const record = await readRecord(absolute, runtimeDir, language);
  const current = await currentRuntime(language);
  const everyPath = [
    ...current.keys(),
    ...Object.keys(record?.files ?? {}),
    ...knownVersions().flatMap((v) => Object.keys(hashesOf(v, language) ?? {})),
  ];
  const project = await readProjectRuntime(absolute, new Set(everyPath));
  const from = carried(record, project, runtimeDir, language);
  const result: UpgradeResult = {
    status: "up-to-date",
    dir,
    language,
    runtimeDir,
    from: from.version,
    to: RUNTIME_VERSION,
    versionFrom: from.versionFrom,
    files: [],
    regenerated: [],
    changes: await changesBetween(from.version, RUNTIME_VERSION),
  };
  if (options.check) return { ...result, status: from.version < RUNTIME_VERSION ? "outdated" : "up-to-date" };
  const inRuntime = (path: string) => `${runtimeDir}/${path}`;
  const writeRecord = () =>
    writeProjectFile(
      dir,
      inRuntime(RECORD_FILE),
      recordText({ version: RUNTIME_VERSION, files: hashesOf(RUNTIME_VERSION, language)! }),
    );
  if (from.version === RUNTIME_VERSION) {
    if (!record && !options.dryRun) await writeRecord();
    return { ...result, recorded: !record };
  }

  const plan = planUpgrade(project, from.base, current);
  const shown = (path: string) => `${runtimeDir}/${path}`;
  result.files = plan.map((file) => reported(file, shown(file.path), options));
  const conflicts = plan.filter((f) => f.action === "conflict");
  const origs = options.force
    ? conflicts.map((f) => `${f.path}.orig`).filter((p) => existsSync(join(absolute, p)))
    : [];
  if (origs.length > 0) {
    throw new ExecutaError(`--force keeps your copies as .orig, and ${origs.map(shown).join(", ")} already exist`, {
      hint: "move them away first; nothing was written",
    });
  }
  if (conflicts.length > 0 && !options.force) return { ...result, status: "refused" };
  if (options.dryRun) return { ...result, status: "dry-run" };

  checkProjectPaths(dir, [RECORD_FILE, ...plan.flatMap((f) => [f.path, `${f.path}.orig`])].map(inRuntime));
  for (const file of plan) {
    const target = join(absolute, file.path);
    const mode = existsSync(target) ? lstatSync(target).mode & 0o777 : 0o644;
    if (file.action === "conflict") writeProjectFile(dir, inRuntime(`${file.path}.orig`), file.before!, mode);
    if (file.after) writeProjectFile(dir, inRuntime(file.path), file.after, mode);
    if (file.action === "remove") await rm(target);
  }
  await writeRecord();
  result.status = "upgraded";
  const regenerated = await regenerateManifest(dir);
  if (regenerated.ok) result.regenerated = regenerated.written;
  else result.manifestError = { message: regenerated.message, manual: "executa manifest" };
  return result;
}

/** A planned file as the result reports it: its diff for a conflict (or with --diff), where --force keeps the author's copy. */
function reported(file: PlannedFile, path: string, options: UpgradeOptions): UpgradedFile {
  const out: UpgradedFile = { path, action: file.action };
  if (file.action === "conflict" && options.force) out.orig = `${path}.orig`;
  if (options.diff || file.action === "conflict")
    out.diff = unifiedDiff(file.before?.toString("utf8") ?? "", file.after?.toString("utf8") ?? "", path);
  return out;
}
