/** What a plugin project is: its language (one detection order) and the files that describe it. */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { readGoMod, readJsonObject, readPyProject, type GoMod, type JsonObject, type PyProject } from "./files.js";
import { LANGUAGES, languageOfType, languagePath, type Language } from "./languages.js";
import { findPyModule } from "./python.js";

export interface Project {
  dir: string;
  language: Language;
  /** executa.json, parsed (undefined when the project has none). */
  executaJson?: JsonObject;
  packageJson?: JsonObject;
  pyproject?: PyProject;
  goMod?: GoMod;
  /** executa.json `tool_id`, else package.json `executa.tool_id`, else the first pyproject script. */
  toolId?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The language a folder's files say: executa.json `type`, else pyproject.toml, package.json, go.mod (Anna's order). */
export function detectLanguage(dir: string, executaJson: JsonObject | undefined): Language | undefined {
  const declared = executaJson?.type;
  if (declared !== undefined && declared !== "binary") {
    const language = languageOfType(declared);
    if (!language) throw new ExecutaError(`executa.json: unknown type ${JSON.stringify(declared)}`, { hint: 'use "node", "python", "go" or "binary"' });
    return language;
  }
  if (declared === "binary") return undefined;
  return (["python", "ts", "go"] as const).find((l) => existsSync(join(dir, LANGUAGES[l].marker)));
}

/** Reads the project in `dir`; throws an ExecutaError that says what to add when it is not one. */
export function loadProject(dirIn: string): Project {
  const dir = resolve(dirIn);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ExecutaError(`${dir} is not a folder`, { hint: "pass the plugin project's folder" });
  const executaJson = readJsonObject(join(dir, "executa.json"));
  const language = detectLanguage(dir, executaJson);
  if (!language) {
    throw new ExecutaError(`cannot tell the language of the project in ${dir}`, {
      hint: 'set "type" in executa.json to "node", "python" or "go"; for a prebuilt binary use `executa manifest --from-plugin -- <command>`',
    });
  }
  const packageJson = language === "ts" ? readJsonObject(join(dir, "package.json")) : undefined;
  const pyproject = language === "python" ? readPyProject(join(dir, "pyproject.toml")) : undefined;
  const goMod = language === "go" ? readGoMod(join(dir, "go.mod")) : undefined;
  const toolId =
    str(executaJson?.tool_id) ?? str((packageJson?.executa as JsonObject | undefined)?.tool_id) ?? pyproject?.scripts[0]?.[0];
  return { dir, language, executaJson, packageJson, pyproject, goMod, ...(toolId && { toolId }) };
}

/** The Python package of a Python project. */
export function pyModuleOf(project: Project): string {
  return findPyModule(project.dir, project.pyproject, project.toolId);
}

/** The project-relative path of the generated bindings file. */
export function bindingsPathOf(project: Project): string {
  return languagePath(LANGUAGES[project.language].bindingsPath, project.language === "python" ? pyModuleOf(project) : undefined);
}
