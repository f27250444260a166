/** What `executa build` needs on top of the project: the executable's name and the committed manifest. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { loadProject, pyModuleOf, type Language, type Project } from "../project/index.js";
import type { Manifest } from "../protocol/index.js";

export type { Language };

export interface BuildProject extends Project {
  /** The executable's name: executa.json tool_id, else its name, else the manifest's name. */
  name: string;
  manifestText: string;
  manifest: Manifest;
  /** Python: the package folder holding __main__.py. */
  pyModule?: string;
}

export function readProject(dir: string): BuildProject {
  const project = loadProject(dir);
  const manifestPath = join(project.dir, "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new ExecutaError(`no manifest.json in ${project.dir}`, { hint: "run `executa manifest` to generate it, then build again" });
  }
  const manifestText = readFileSync(manifestPath, "utf8");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch (error) {
    throw new ExecutaError(`manifest.json is not valid JSON: ${(error as Error).message}`, { hint: "run `executa manifest` to regenerate it" });
  }
  const raw = [project.toolId, project.executaJson?.name, manifest.name].find((v) => typeof v === "string" && v) as string | undefined;
  if (!raw) throw new ExecutaError("the plugin has no name", { hint: "set tool_id in executa.json" });
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(raw)) {
    throw new ExecutaError(`the plugin name '${raw}' cannot be a file name`, { hint: "use letters, digits, '.', '-' and '_' in tool_id" });
  }
  return { ...project, name: raw, manifestText, manifest, ...(project.language === "python" && { pyModule: pyModuleOf(project) }) };
}
