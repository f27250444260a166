/** Paths of the broken and reference plugins, and a runner for them. */
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LaunchSpec } from "../../src/host/index.js";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const PLUGINS = join(REPO_ROOT, "test", "broken-plugins");
export const EXECUTA = join(REPO_ROOT, "bin", "executa.js");

export function pluginLaunch(file: string): LaunchSpec {
  const path = join(PLUGINS, file);
  return file.endsWith(".py") ? { command: "python3", args: [path] } : { command: process.execPath, args: [path] };
}

export function executa(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [EXECUTA, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    input: options.input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
