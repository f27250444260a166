/**
 * Turns a detected launch into one that runs the current source, fast, for many sessions:
 * a TypeScript entry is bundled fresh with esbuild; `go run .` is built once into a temp binary.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "../bundle/index.js";
import { exec } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";
import type { LaunchSpec } from "./launch.js";

export interface PreparedLaunch {
  launch: LaunchSpec;
  cleanup(): void;
}

async function bundleTs(launch: LaunchSpec & { tsEntry: string }, cwd: string, dir: string): Promise<LaunchSpec> {
  const { code } = await bundle({ projectDir: cwd, entry: launch.tsEntry });
  const file = join(dir, "plugin.cjs");
  writeFileSync(file, code);
  const { tsEntry: _entry, ...rest } = launch;
  return { ...rest, args: [file, ...launch.args.slice(1)] };
}

async function buildGo(launch: LaunchSpec, dir: string): Promise<LaunchSpec> {
  const binary = join(dir, process.platform === "win32" ? "plugin.exe" : "plugin");
  const packages = launch.args.slice(1).filter((a) => !a.startsWith("-"));
  const result = await exec("go", ["build", "-o", binary, ...(packages.length ? packages : ["."])], {
    ...(launch.cwd && { cwd: launch.cwd }),
    env: { ...process.env, ...launch.env },
  });
  if (result.spawnError || result.code !== 0) {
    throw new ExecutaError(`go build failed: ${(result.spawnError?.message ?? result.stderr.trim()).split("\n").slice(0, 5).join(" / ")}`, {
      hint: result.spawnError ? "install Go (https://go.dev/dl/)" : "fix the compile errors (go build .)",
    });
  }
  return { ...launch, command: binary, args: [] };
}

export async function prepareLaunch(launch: LaunchSpec): Promise<PreparedLaunch> {
  const isGoRun = launch.command === "go" && launch.args[0] === "run";
  if (!launch.tsEntry && !isGoRun) return { launch, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), "executa-launch-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const prepared = launch.tsEntry ? await bundleTs({ ...launch, tsEntry: launch.tsEntry }, launch.cwd ?? process.cwd(), dir) : await buildGo(launch, dir);
    return { launch: prepared, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
