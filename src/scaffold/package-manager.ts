/** What the templates and the printed next steps say for the project's package manager. */
import {
  dlxBin,
  execBin,
  frozenInstallCommand,
  globalInstall,
  installCommand,
  isYarnClassic,
  packageManagerField,
  runScript,
  type PackageManager,
} from "../project/index.js";

/** The scripts of the TypeScript template that its files and READMEs name. */
const SCRIPTS = ["compile", "test", "start", "manifest", "build"] as const;

export interface PackageManagerContext {
  name: PackageManager["name"];
  /** `npm install` */
  install: string;
  /** `npm test`, `npm run compile`... */
  run: Record<(typeof SCRIPTS)[number], string>;
  /** The toolchain inside a TypeScript project: `npx executa`. */
  executa: string;
  /** The toolchain fetched for one run (Python and Go projects): `npx --yes --package='create-executa@^1.0.0' executa`. */
  dlxExecuta: string;
  /** `npm install -g create-executa`; undefined for Yarn 2+, which has no global installs. */
  globalInstall?: string;
  /** package.json `packageManager`, when written. */
  packageManagerField?: string;
  /** Yarn 2+: the project's .yarnrc.yml asks for a node_modules folder (tsc and the toolchain read it). */
  yarnBerry: boolean;
  /** The generated workflow's steps. */
  ci: { setup?: "pnpm" | "bun" | "corepack"; cache?: string; install: string };
}

export function packageManagerContext(pm: PackageManager, toolchainSpec: string): PackageManagerContext {
  const field = packageManagerField(pm);
  const yarnBerry = pm.name === "yarn" && !isYarnClassic(pm);
  return {
    name: pm.name,
    install: installCommand(pm),
    run: Object.fromEntries(SCRIPTS.map((s) => [s, runScript(pm, s)])) as PackageManagerContext["run"],
    executa: execBin(pm, "executa"),
    dlxExecuta: dlxBin(pm, `create-executa@${toolchainSpec}`, "executa"),
    ...(globalInstall(pm, "create-executa") && { globalInstall: globalInstall(pm, "create-executa") }),
    ...(field && { packageManagerField: field }),
    yarnBerry,
    ci: {
      // pnpm/action-setup reads the version from packageManager; Corepack provides Yarn 2+ from it.
      ...(pm.name === "pnpm"
        ? { setup: "pnpm" as const }
        : pm.name === "bun"
          ? { setup: "bun" as const }
          : yarnBerry
            ? { setup: "corepack" as const }
            : {}),
      ...(pm.name !== "bun" && { cache: pm.name }),
      install: frozenInstallCommand(pm),
    },
  };
}
