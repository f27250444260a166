/** `--sync-version`: copy the package.json / pyproject.toml version into executa.json (for `npm version`). */
import { ExecutaError } from "../common/errors.js";
import { loadProject, updateExecutaJson } from "../project/index.js";

/** Returns the version written, or undefined when executa.json already had it. */
export function syncVersion(projectDir: string): string | undefined {
  const project = loadProject(projectDir);
  const version =
    project.language === "ts"
      ? (project.packageJson?.version as string | undefined)
      : project.language === "python"
        ? project.pyproject?.version
        : undefined;
  if (typeof version !== "string") {
    throw new ExecutaError("--sync-version needs a version in package.json or pyproject.toml", {
      hint: "set the version in executa.json itself",
    });
  }
  if (project.executaJson?.version === version) return undefined;
  updateExecutaJson(project.dir, (json) => ({ ...json, version }));
  return version;
}
