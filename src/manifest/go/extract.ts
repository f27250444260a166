/** The Go extractor: helpers/go, a go/ast program built once into a cache dir, then run per project. */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { tempNameFor } from "../../common/atomic-write.js";
import { exec, tail, which } from "../../common/exec.js";
import { ExecutaError } from "../../common/errors.js";
import { HELPERS_DIR } from "../../common/package-info.js";
import { precomputedExtraction } from "../fallback/index.js";
import { helperEnv, runHelper, ToolchainMissing } from "../helper-run.js";
import { resolveToolHostCalls } from "../host-helpers.js";
import type { Extraction } from "../model.js";
import { toolchainProgram, type SourceProject } from "../../project/index.js";

export const GO_HELPER_DIR = join(HELPERS_DIR, "go");

function cacheDir(): string {
  const base =
    process.env.XDG_CACHE_HOME ||
    (process.platform === "win32" ? process.env.LOCALAPPDATA : undefined) ||
    join(homedir(), ".cache");
  return join(base, "create-executa");
}

/**
 * How the helper is built: from our own module only (GOWORK off, never a project's go.mod or
 * go.work), with this Go (GOTOOLCHAIN=local: no toolchain line anywhere downloads or runs another),
 * nothing fetched (GOPROXY=off: the helper needs the standard library only), for this machine, and
 * without GOFLAGS or build settings from the environment.
 */
const goBuildEnv = () =>
  helperEnv(/^(GOFLAGS|GOTOOLCHAIN|GOWORK|GOPROXY|GOOS|GOARCH|GOARM|GOAMD64|GO386|GOEXPERIMENT|GODEBUG|CGO_[A-Z_]+)$/, {
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
    GOWORK: "off",
    GOPROXY: "off",
    CGO_ENABLED: "0",
  });

/** The helper binary for this helper source, built with `go build` on first use. */
export async function helperBinary(go: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of readdirSync(GO_HELPER_DIR)
    .filter((f) => f === "go.mod" || f.endsWith(".go"))
    .sort())
    hash.update(file).update(readFileSync(join(GO_HELPER_DIR, file)));
  const exe = process.platform === "win32" ? ".exe" : "";
  const binary = join(
    cacheDir(),
    `go-extract-${hash.digest("hex").slice(0, 16)}-${process.platform}-${process.arch}${exe}`,
  );
  if (existsSync(binary)) return binary;
  mkdirSync(cacheDir(), { recursive: true });
  const temp = tempNameFor(binary) + exe;
  const built = await exec(go, ["build", "-trimpath", "-o", temp, "."], {
    cwd: GO_HELPER_DIR,
    env: goBuildEnv(),
    timeoutMs: 180_000,
  });
  if (built.spawnError?.code === "ENOENT") throw new ToolchainMissing(`${go} was not found`);
  if (built.code !== 0)
    throw new ExecutaError(`building the Go extractor failed: ${tail(built.stderr)}`, {
      hint: "check that `go version` works (Go 1.21 or newer)",
    });
  renameSync(temp, binary);
  return binary;
}

export async function extractGo(project: SourceProject, goGiven?: string): Promise<Extraction> {
  // Never a go inside the project (a script it ships on an activated PATH).
  const go = goGiven ?? toolchainProgram(["go"], project.dir);
  try {
    // The toolchain decides, not a helper binary cached by an earlier run.
    if (!go || !(go.includes("/") || go.includes("\\") ? existsSync(go) : which(go)))
      throw new ToolchainMissing(`${go ?? "go"} was not found`);
    const binary = await helperBinary(go);
    const { hostCalls, ...out } = await runHelper(
      binary,
      [project.dir, project.goMod?.module ?? ""],
      project.dir,
      "Go extractor",
    );
    return { ...out, ...resolveToolHostCalls("go", hostCalls), via: "go" };
  } catch (error) {
    if (!(error instanceof ToolchainMissing)) throw error;
    const fallback = precomputedExtraction(project);
    if (fallback) return fallback;
    throw new ExecutaError(
      `${go ?? "go"} was not found${go ? "" : " outside the project"}, so the Go tools cannot be read`,
      {
        hint: "install Go 1.21 or newer (https://go.dev/dl) and run `executa manifest` again",
      },
    );
  }
}

/** The helper formats the bindings with go/format; this is only the wrapper for precomputed data. */
export function renderGoBindings(extraction: Extraction): string | undefined {
  return extraction.bindingsSource;
}
