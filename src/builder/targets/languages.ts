/**
 * Which platforms `executa build` builds for each language, and where CI builds each one: the
 * facts the generated workflows' build matrices are rendered from.
 */
import { PLATFORM_KEYS, type PlatformKey } from "../../protocol/index.js";
import type { Language } from "../../project/index.js";
import { nodeTargetExists } from "./platforms.js";

/** The targets `--target all` means: Go cross-builds every key, TypeScript those Node has a build for, Python any (on its own platform). */
export function buildTargets(language: Language): PlatformKey[] {
  if (language === "ts") return PLATFORM_KEYS.filter(nodeTargetExists);
  return [...PLATFORM_KEYS];
}

/**
 * GitHub-hosted runners that are each platform natively. PyInstaller cannot cross-build, so a
 * Python workflow builds each target on its own runner; a target with no runner is not in its matrix.
 */
export const NATIVE_RUNNERS: Partial<Record<PlatformKey, string>> = {
  "linux-x86_64": "ubuntu-latest",
  "linux-aarch64": "ubuntu-24.04-arm",
  "darwin-arm64": "macos-14",
  "darwin-x86_64": "macos-15-intel",
  "windows-x86_64": "windows-latest",
  "windows-arm64": "windows-11-arm",
};

/** The runner that cross-builds every target of a TypeScript or Go plugin. */
export const CROSS_RUNNER = "ubuntu-latest";

export interface MatrixEntry {
  target: PlatformKey;
  os: string;
}

/** The build matrix of a language's generated workflow: every target `executa build` accepts that a runner can build. */
export function workflowMatrix(language: Language): MatrixEntry[] {
  if (language !== "python") return buildTargets(language).map((target) => ({ target, os: CROSS_RUNNER }));
  return buildTargets(language).flatMap((target) =>
    NATIVE_RUNNERS[target] ? [{ target, os: NATIVE_RUNNERS[target]! }] : [],
  );
}
