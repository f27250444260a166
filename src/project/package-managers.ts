/**
 * The JavaScript package managers a project can use (npm, pnpm, yarn, bun): which one ran us, and
 * the command lines each spells differently. The one table the scaffold, the templates and the
 * printed next steps read.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec } from "../common/exec.js";

export const PACKAGE_MANAGER_NAMES = ["npm", "pnpm", "yarn", "bun"] as const;
export type PackageManagerName = (typeof PACKAGE_MANAGER_NAMES)[number];

export interface PackageManager {
  name: PackageManagerName;
  /** The version that ran us (from the user agent) or that `<name> --version` printed; unknown otherwise. */
  version?: string;
}

/** Yarn 1 (classic) has no `dlx`, no global-less installs and other lockfile flags than Yarn 2+ (Berry). */
export function isYarnClassic(pm: PackageManager): boolean {
  return pm.name === "yarn" && pm.version !== undefined && /^1\./.test(pm.version);
}

/** The package manager named by `npm_config_user_agent` ("pnpm/10.4.1 npm/? node/v20.11.0 linux x64"), if any. */
export function packageManagerFromUserAgent(userAgent: string | undefined): PackageManager | undefined {
  const m = /^(npm|pnpm|yarn|bun)\/(\S+)/.exec(userAgent?.trim() ?? "");
  if (!m) return undefined;
  const version = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/.test(m[2]!) ? m[2] : undefined;
  return { name: m[1] as PackageManagerName, ...(version && { version }) };
}

/** `--package-manager` (case-insensitive); an unknown value lists the valid ones. */
export function parsePackageManagerName(value: string): PackageManagerName {
  const name = value.trim().toLowerCase();
  if ((PACKAGE_MANAGER_NAMES as readonly string[]).includes(name)) return name as PackageManagerName;
  throw new ExecutaError(`unknown package manager '${value}'`, {
    hint: `use --package-manager with one of: ${PACKAGE_MANAGER_NAMES.join(", ")}`,
  });
}

/** The lockfile each one writes (bun before 1.2 wrote the binary bun.lockb). */
export const LOCKFILES: Record<PackageManagerName, readonly string[]> = {
  npm: ["package-lock.json"],
  pnpm: ["pnpm-lock.yaml"],
  yarn: ["yarn.lock"],
  bun: ["bun.lock", "bun.lockb"],
};

/** The package manager a project's lockfile says, npm when it has none. */
export function packageManagerOfProject(dir: string): PackageManagerName {
  return PACKAGE_MANAGER_NAMES.find((name) => LOCKFILES[name].some((file) => existsSync(join(dir, file)))) ?? "npm";
}

/** `npm test`, `pnpm run compile`, `yarn build`, `bun run test` (`bun test` is bun's own test runner). */
export function runScript(pm: PackageManager, script: string): string {
  switch (pm.name) {
    case "npm":
      return script === "test" || script === "start" ? `npm ${script}` : `npm run ${script}`;
    case "pnpm":
      return script === "test" || script === "start" ? `pnpm ${script}` : `pnpm run ${script}`;
    case "yarn":
      return `yarn ${script}`;
    case "bun":
      return `bun run ${script}`;
  }
}

/** A program installed in the project (node_modules/.bin), e.g. `pnpm exec executa`. */
export function execBin(pm: PackageManager, bin: string): string {
  return { npm: `npx ${bin}`, pnpm: `pnpm exec ${bin}`, yarn: `yarn ${bin}`, bun: `bunx ${bin}` }[pm.name];
}

/** A program of a package fetched for one run, e.g. `pnpm --package='create-executa@^1.0.0' dlx executa`. */
export function dlxBin(pm: PackageManager, packageSpec: string, bin: string): string {
  const spec = `'${packageSpec}'`;
  if (pm.name === "pnpm") return `pnpm --package=${spec} dlx ${bin}`;
  if (pm.name === "yarn" && !isYarnClassic(pm)) return `yarn dlx --package ${spec} ${bin}`;
  if (pm.name === "bun") return `bunx --package ${spec} ${bin}`;
  // npm, and Yarn 1, which has no dlx.
  return `npx --yes --package=${spec} ${bin}`;
}

/** Installing a package's programs once for the user, or undefined when the package manager has no global installs (Yarn 2+). */
export function globalInstall(pm: PackageManager, pkg: string): string | undefined {
  if (pm.name === "yarn") return isYarnClassic(pm) ? `yarn global add ${pkg}` : undefined;
  return { npm: `npm install -g ${pkg}`, pnpm: `pnpm add -g ${pkg}`, bun: `bun add -g ${pkg}` }[pm.name];
}

/** `npm create executa@latest my-plugin -- --lang go`, spelled for each (only npm needs the `--`). */
export function createCommand(pm: PackageManager, dir: string, flags: string): string {
  return pm.name === "npm"
    ? `npm create executa@latest ${dir} -- ${flags}`
    : `${pm.name} create executa ${dir} ${flags}`;
}

/** The install in a fresh project, as the user would type it. */
export function installCommand(pm: PackageManager): string {
  return `${pm.name} install`;
}

/** The install from the lockfile, for CI. */
export function frozenInstallCommand(pm: PackageManager): string {
  switch (pm.name) {
    case "npm":
      return "npm ci";
    case "yarn":
      return isYarnClassic(pm) ? "yarn install --frozen-lockfile" : "yarn install --immutable";
    default:
      return `${pm.name} install --frozen-lockfile`;
  }
}

/**
 * package.json `packageManager` (read by Corepack and pnpm/action-setup): written for pnpm and yarn
 * when the version is known, so that CI and every contributor use the one that made the lockfile.
 */
export function packageManagerField(pm: PackageManager): string | undefined {
  return (pm.name === "pnpm" || pm.name === "yarn") && pm.version ? `${pm.name}@${pm.version}` : undefined;
}

/**
 * The package manager to use: `--package-manager`, else the one that ran us, else npm. A flag
 * naming another one than the user agent's gets its version from `<name> --version`.
 */
export async function resolvePackageManager(
  flag: string | undefined,
  userAgent = process.env.npm_config_user_agent,
): Promise<PackageManager> {
  const running = packageManagerFromUserAgent(userAgent);
  if (flag === undefined) return running ?? { name: "npm" };
  const name = parsePackageManagerName(flag);
  if (running?.name === name) return running;
  const probe = await exec(name, ["--version"], { timeoutMs: 15_000 });
  const version = probe.code === 0 ? /^\d+\.\d+\.\d+\S*/.exec(probe.stdout.trim())?.[0] : undefined;
  return { name, ...(version && { version }) };
}
