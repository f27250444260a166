/** What a plugin project is: its type (one detection order), and the files that describe it, read once. */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { readExecutaJsonFile, type ExecutaJson } from "./executa-json.js";
import { binaryEntryOf } from "./entry.js";
import { readGoMod, readJsonObject, readPyProject, type GoMod, type JsonObject, type PyProject } from "./files.js";
import { LANGUAGES, languageOfType, type Language } from "./languages.js";
import { findPyModule } from "./python.js";

interface ProjectFiles {
  /** Absolute. */
  dir: string;
  /** executa.json, parsed (undefined when the project has none). */
  executaJson?: ExecutaJson;
  /** executa.json's text, for locating its fields in diagnostics. */
  executaJsonText?: string;
  /** executa.json `tool_id`, else package.json `executa.tool_id`, else the first pyproject script. */
  toolId?: string;
}

/** A project in one of our languages: its source is what the manifest is read from and what is built. */
export interface SourceProject extends ProjectFiles {
  language: Language;
  packageJson?: JsonObject;
  pyproject?: PyProject;
  goMod?: GoMod;
}

/** executa.json `type: "binary"`: a prebuilt executable, packaged as it is. */
export interface BinaryProject extends ProjectFiles {
  language: "binary";
  executaJson: ExecutaJson;
  /** The executable, project-relative (binaryEntryOf), when the folder has one. */
  executable?: string;
}

/** Every kind of project executa.json can describe. */
export type Project = SourceProject | BinaryProject;

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The language a folder's files say: executa.json `type`, else pyproject.toml, package.json, go.mod (Anna's order). */
export function detectLanguage(dir: string, executaJson: JsonObject | undefined): Language | undefined {
  const declared = executaJson?.type;
  if (declared === "binary") return undefined;
  if (declared !== undefined) {
    const language = languageOfType(declared);
    if (!language)
      throw new ExecutaError(`executa.json: unknown type ${JSON.stringify(declared)}`, {
        hint: 'use "node", "python", "go" or "binary"',
      });
    return language;
  }
  return (["python", "ts", "go"] as const).find((l) => existsSync(join(dir, LANGUAGES[l].marker)));
}

function requireFolder(dirIn: string): string {
  const dir = resolve(dirIn);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new ExecutaError(`${dir} is not a folder`, { hint: "pass the plugin project's folder" });
  return dir;
}

/** Reads the project in `dir`, a binary one included; throws an ExecutaError that says what to add when it is not one. */
export function loadAnyProject(dirIn: string): Project {
  const dir = requireFolder(dirIn);
  const file = readExecutaJsonFile(dir);
  const executaJson = file?.json;
  const executaJsonText = file?.text;
  if (executaJson?.type === "binary") {
    const toolId = str(executaJson.tool_id);
    const executable = binaryEntryOf(dir, executaJson);
    return {
      dir,
      language: "binary",
      executaJson,
      executaJsonText: file!.text,
      ...(toolId && { toolId }),
      ...(executable && { executable }),
    };
  }
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
    str(executaJson?.tool_id) ??
    str((packageJson?.executa as JsonObject | undefined)?.tool_id) ??
    pyproject?.scripts[0]?.[0];
  return { dir, language, executaJson, executaJsonText, packageJson, pyproject, goMod, ...(toolId && { toolId }) };
}

/** Reads a project in one of our languages (the manifest, add tool and upgrade need its source). */
export function loadProject(dirIn: string): SourceProject {
  const project = loadAnyProject(dirIn);
  if (project.language === "binary") {
    throw new ExecutaError(
      `the project in ${project.dir} is a prebuilt binary (executa.json type "binary"): it has no source to read`,
      {
        hint: 'take its manifest from the running plugin: `executa manifest --from-plugin -- <command>`, or set "manifest_source": "plugin" in executa.json',
      },
    );
  }
  return project;
}

/** The Python package of a Python project. */
export function pyModuleOf(project: SourceProject): string {
  return findPyModule(project.dir, project.pyproject, project.toolId);
}
