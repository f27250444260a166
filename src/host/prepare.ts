/** Turns a slow launch into a fast one for many sessions: `go run .` is built once into a temp binary. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exec } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";
import type { LaunchSpec } from "./launch.js";

export interface PreparedLaunch {
  launch: LaunchSpec;
  cleanup(): void;
}

export async function prepareLaunch(launch: LaunchSpec): Promise<PreparedLaunch> {
  if (launch.command !== "go" || launch.args[0] !== "run") return { launch, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), "executa-go-"));
  const binary = join(dir, process.platform === "win32" ? "plugin.exe" : "plugin");
  const packages = launch.args.slice(1).filter((a) => !a.startsWith("-"));
  const result = await exec("go", ["build", "-o", binary, ...(packages.length ? packages : ["."])], {
    ...(launch.cwd && { cwd: launch.cwd }),
    env: { ...process.env, ...launch.env },
  });
  if (result.spawnError || result.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new ExecutaError(`go build failed: ${(result.spawnError?.message ?? result.stderr.trim()).split("\n").slice(0, 5).join(" / ")}`, {
      hint: result.spawnError ? "install Go (https://go.dev/dl/)" : "fix the compile errors (go build .)",
    });
  }
  return { launch: { ...launch, command: binary, args: [] }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
