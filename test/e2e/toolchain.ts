/**
 * The package as users get it: `npm pack` of this repository, installed into a temporary prefix.
 * Shared by the end-to-end tests so that a file missing from the package makes them fail.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

let cached: { tarball: string; bin: string } | undefined;

/**
 * Packs this repository and installs the tarball; returns the tarball and the installed .bin folder.
 * `npm test` (scripts/run-tests.mjs) does this once for every end-to-end file and says where.
 */
export function installedToolchain(): { tarball: string; bin: string } {
  if (cached) return cached;
  if (process.env.EXECUTA_E2E_TARBALL && process.env.EXECUTA_E2E_BIN) {
    cached = { tarball: process.env.EXECUTA_E2E_TARBALL, bin: process.env.EXECUTA_E2E_BIN };
    return cached;
  }
  const work = mkdtempSync(join(tmpdir(), "executa-e2e-"));
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);
  const prefix = join(work, "prefix");
  mkdirSync(prefix);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--prefix", prefix, tarball], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  cached = { tarball, bin: join(prefix, "node_modules", ".bin") };
  return cached;
}

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `executa-${label}-`));
}

export interface Run extends Omit<SpawnSyncReturns<string>, "output"> {
  /** The command and everything it printed, for assertion messages. */
  output: string;
}

/**
 * The environment of a user's shell: this process's, without the `npm_*` variables that `npm test`
 * exports to its scripts (its config, such as omit-lockfile-registry-resolved, would otherwise
 * reach the user's npm commands and change what they do).
 */
export function userEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, ...overrides };
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Run {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: userEnv(options.env),
    input: options.input ?? "",
    encoding: "utf8",
    timeout: options.timeoutMs ?? 10 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return Object.assign(result, {
    output: `${command} ${args.join(" ")}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
  });
}

/** Runs one of the installed package's commands (`create-executa` or `executa`). */
export function toolchain(
  command: "create-executa" | "executa",
  args: string[],
  options: Parameters<typeof run>[2] = {},
): Run {
  return run(join(installedToolchain().bin, command), args, options);
}

export function exists(...parts: string[]): boolean {
  return existsSync(join(...parts));
}
