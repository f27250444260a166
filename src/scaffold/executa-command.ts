/** The command a person types to run this toolchain, for printed next steps: always one that runs here. */
import { realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { which } from "../common/exec.js";
import { PACKAGE_ROOT, PACKAGE_VERSION } from "../common/package-info.js";
import type { PackageManager } from "../project/index.js";
import { packageManagerContext } from "./package-manager.js";

/** What every generated file names: this version's range on the registry (never a path of this machine). */
export const TOOLCHAIN_SPEC = `^${PACKAGE_VERSION}`;

const OWN_BIN = join(PACKAGE_ROOT, "bin", "executa.js");

/** This create-executa runs from a source checkout (not an installed package). */
export function fromSourceCheckout(): boolean {
  return !PACKAGE_ROOT.split(/[\\/]/).includes("node_modules");
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The toolchain as the author runs it from the current folder: the project's own when it has one
 * (`npx executa`: a TypeScript project made by create-executa has it as a devDependency); else
 * `executa` when the one on PATH is this very toolchain; else this source checkout's launcher
 * (`node <path>`); else the registry's (`npx --yes --package=create-executa@^V executa`).
 */
export function executaCommand(pm: PackageManager, projectHasToolchain: boolean, cwd = process.cwd()): string {
  const context = packageManagerContext(pm, TOOLCHAIN_SPEC);
  if (projectHasToolchain) return context.executa;
  const onPath = which("executa");
  if (onPath && realPath(onPath) === realPath(OWN_BIN)) return "executa";
  if (fromSourceCheckout()) return `node ${relative(cwd, OWN_BIN)}`;
  return context.dlxExecuta;
}
