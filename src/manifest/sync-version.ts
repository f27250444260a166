/** `--sync-version`: copy the package.json / pyproject.toml version into executa.json (for `npm version`). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { loadProject } from "../project/index.js";

/** Returns the version written, or undefined when executa.json already had it. */
export function syncVersion(projectDir: string): string | undefined {
  const project = loadProject(projectDir);
  const version =
    project.language === "ts" ? (project.packageJson?.version as string | undefined) : project.language === "python" ? project.pyproject?.version : undefined;
  if (typeof version !== "string") {
    throw new ExecutaError("--sync-version needs a version in package.json or pyproject.toml", { hint: "set the version in executa.json itself" });
  }
  if (project.executaJson?.version === version) return undefined;
  const path = join(projectDir, "executa.json");
  const text = readFileSync(path, "utf8");
  const replaced = text.replace(/("version"\s*:\s*)"(?:[^"\\]|\\.)*"/, (_m, head: string) => `${head}${JSON.stringify(version)}`);
  writeFileSync(path, replaced === text ? JSON.stringify({ ...project.executaJson, version }, null, 2) + "\n" : replaced);
  return version;
}
