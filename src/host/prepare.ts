/**
 * Turns a detected launch into one that runs the current source, for many sessions: a TypeScript
 * entry is compiled by the project's tsc program (type-checked, emitted where `npm start` runs it;
 * without a tsconfig.json, bundled as an ES module with esbuild), with source maps on; `go run .`
 * is built once into a temp binary.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundle, compileProject } from "../bundle/index.js";
import { makeTempDir, removeNow } from "../common/cleanup.js";
import { exec } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";
import type { LaunchSpec } from "./launch.js";

export interface PreparedLaunch {
  launch: LaunchSpec;
  /** Said before the plugin starts, e.g. why its type check was skipped. */
  note?: string;
  cleanup(): void;
}

/** The emitted entry, or (without a tsconfig.json) an ES module bundle written into `tempDir()`. */
async function compileTs(
  launch: LaunchSpec & { tsEntry: string },
  cwd: string,
  tempDir: () => string,
): Promise<{ launch: LaunchSpec; note?: string }> {
  const compiled = await compileProject(cwd, launch.tsEntry);
  let file = compiled?.file;
  if (!file) {
    file = join(tempDir(), "plugin.mjs");
    writeFileSync(file, (await bundle({ projectDir: cwd, entry: launch.tsEntry, format: "esm" })).code);
  }
  const { tsEntry: _entry, ...rest } = launch;
  const note = compiled?.check.status === "types-missing" ? compiled.check.note : undefined;
  return { launch: { ...rest, args: ["--enable-source-maps", file, ...launch.args.slice(1)] }, ...(note && { note }) };
}

async function buildGo(launch: LaunchSpec, dir: string): Promise<LaunchSpec> {
  const binary = join(dir, process.platform === "win32" ? "plugin.exe" : "plugin");
  const packages = launch.args.slice(1).filter((a) => !a.startsWith("-"));
  const result = await exec("go", ["build", "-o", binary, ...(packages.length ? packages : ["."])], {
    ...(launch.cwd && { cwd: launch.cwd }),
    env: { ...process.env, ...launch.env },
  });
  if (result.spawnError || result.code !== 0) {
    throw new ExecutaError(
      `go build failed: ${(result.spawnError?.message ?? result.stderr.trim()).split("\n").slice(0, 5).join(" / ")}`,
      {
        hint: result.spawnError ? "install Go (https://go.dev/dl/)" : "fix the compile errors (go build .)",
      },
    );
  }
  return { ...launch, command: binary, args: [] };
}

export async function prepareLaunch(launch: LaunchSpec): Promise<PreparedLaunch> {
  const isGoRun = launch.command === "go" && launch.args[0] === "run";
  if (!launch.tsEntry && !isGoRun) return { launch, cleanup: () => undefined };
  let dir: string | undefined;
  const tempDir = () => (dir ??= makeTempDir("executa-launch-"));
  const cleanup = () => {
    if (dir) removeNow(dir);
  };
  try {
    const prepared = launch.tsEntry
      ? await compileTs({ ...launch, tsEntry: launch.tsEntry }, launch.cwd ?? process.cwd(), tempDir)
      : { launch: await buildGo(launch, tempDir()) };
    return { ...prepared, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
