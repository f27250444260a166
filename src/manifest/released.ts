/**
 * The released manifest `--against` compares with: manifest.json at a git ref (default: the
 * newest `v*` tag), or a manifest file inside the project or the temp folder.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import semver from "semver";
import { ExecutaError } from "../common/errors.js";
import { exec, tail, which } from "../common/exec.js";

export interface Released {
  /** What was compared against: `v1.2.0`, or the file's path. */
  against: string;
  manifest: Record<string, unknown>;
  version: string;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(realpathSync(folder), realpathSync(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function parse(text: string, where: string): Released["manifest"] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ExecutaError(`the released manifest (${where}) is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new ExecutaError(`the released manifest (${where}) is not a JSON object`);
  return value as Released["manifest"];
}

function released(against: string, manifest: Released["manifest"]): Released {
  const version = manifest.version;
  if (typeof version !== "string" || !semver.valid(version)) {
    throw new ExecutaError(`the released manifest (${against}) has no SemVer version (${JSON.stringify(version)})`, {
      hint: "compare against a manifest.json that executa manifest generated",
    });
  }
  return { against, manifest, version };
}

async function git(projectDir: string, args: string[]) {
  return exec("git", args, { cwd: projectDir });
}

/** The newest `v*` tag by version order, or undefined when there is none (or no git repository). */
export async function newestVersionTag(projectDir: string): Promise<string | undefined> {
  if (!which("git")) return undefined;
  const result = await git(projectDir, ["tag", "--list", "v*", "--sort=-v:refname"]);
  if (result.code !== 0) return undefined;
  return result.stdout
    .split("\n")
    .map((t) => t.trim())
    .find(Boolean);
}

/**
 * The manifest `spec` names: a file (inside the project or the temp folder: nothing else is read
 * because of a flag) or a git ref whose manifest.json is read from the project's folder in it.
 */
export async function readReleased(projectDir: string, spec: string): Promise<Released> {
  const path = resolve(spec);
  if (existsSync(path) && statSync(path).isFile()) {
    if (!inside(projectDir, path) && !inside(tmpdir(), path)) {
      throw new ExecutaError(
        `--against ${spec}: the file is outside the project and the temp folder, so it is not read`,
        {
          hint: "copy the released manifest.json into the project (or the temp folder), or name a git ref such as v1.2.0",
        },
      );
    }
    return released(spec, parse(readFileSync(path, "utf8"), spec));
  }
  if (spec.startsWith("-") || spec.includes(":") || /\s/.test(spec)) {
    throw new ExecutaError(`--against ${JSON.stringify(spec)} is neither a file nor a git ref`, {
      hint: "name a tag such as v1.2.0, a commit, or a manifest file in the project",
    });
  }
  if (!which("git"))
    throw new ExecutaError(`--against ${spec} names a git ref, and git is not installed`, {
      hint: "install git, or pass the released manifest.json as a file",
    });
  const commit = await git(projectDir, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${spec}^{commit}`]);
  if (commit.code !== 0) {
    throw new ExecutaError(`--against ${spec}: no such file, and no such git ref in ${projectDir}`, {
      hint: "fetch the tags (`git fetch --tags`; in GitHub Actions, checkout with fetch-depth: 0), or pass a file",
    });
  }
  // `<commit>:./manifest.json` is the project's own manifest.json, wherever the project sits in the repository.
  const shown = await git(projectDir, ["show", `${commit.stdout.trim()}:./manifest.json`]);
  if (shown.code !== 0) {
    throw new ExecutaError(`${spec} has no manifest.json in this project's folder: ${tail(shown.stderr, 1)}`, {
      hint: "compare against a release made with executa manifest, or pass its manifest.json as a file",
    });
  }
  return released(spec, parse(shown.stdout, `${spec}:manifest.json`));
}
