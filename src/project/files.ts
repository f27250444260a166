/** Readers for the files around a plugin: executa.json, package.json, pyproject.toml, go.mod. */
import { existsSync, readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import { ExecutaError } from "../common/errors.js";

export type JsonObject = Record<string, unknown>;

export interface PyProject {
  name?: string;
  version?: string;
  description?: string;
  license?: string;
  /** The first author's name. */
  author?: string;
  /** `[project.scripts]`, in file order. */
  scripts: [name: string, target: string][];
  /** `[project].dependencies`: PEP 508 requirement strings. */
  dependencies: string[];
}

export interface GoMod {
  module: string;
  go?: string;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A text file, or an ExecutaError that names it. */
export function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ExecutaError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** A JSON file that must hold an object; undefined when the file does not exist. */
export function readJsonObject(path: string): JsonObject | undefined {
  return existsSync(path) ? parseJsonObject(readText(path), path) : undefined;
}

/** JSON text that must hold an object (`path` names the file in errors). */
export function parseJsonObject(text: string, path: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ExecutaError(`${path} is not valid JSON: ${(error as Error).message}`, {
      hint: "fix the file and run the command again",
    });
  }
  if (!isObject(value))
    throw new ExecutaError(`${path} must hold a JSON object`, { hint: "fix the file and run the command again" });
  return value;
}

export function parsePyProject(text: string, path = "pyproject.toml"): PyProject {
  let toml: JsonObject;
  try {
    toml = parseToml(text) as JsonObject;
  } catch (error) {
    const e = error as Error & { line?: number; column?: number };
    const where = e.line ? `${path}:${e.line}:${e.column ?? 1}` : path;
    throw new ExecutaError(`${where}: error: not valid TOML: ${e.message.split("\n")[0]}`, {
      hint: "fix the file and run the command again",
    });
  }
  const project = isObject(toml.project) ? toml.project : {};
  const license = isObject(project.license) ? str(project.license.text) : str(project.license);
  const firstAuthor = Array.isArray(project.authors) ? project.authors.find(isObject) : undefined;
  const scripts = isObject(project.scripts)
    ? Object.entries(project.scripts).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : []))
    : [];
  return {
    name: str(project.name),
    version: str(project.version),
    description: str(project.description),
    license,
    author: firstAuthor ? str(firstAuthor.name) : undefined,
    scripts,
    dependencies: Array.isArray(project.dependencies)
      ? project.dependencies.filter((d): d is string => typeof d === "string")
      : [],
  };
}

export function readPyProject(path: string): PyProject | undefined {
  return existsSync(path) ? parsePyProject(readText(path), path) : undefined;
}

/** go.mod's `module` and `go` lines (read line by line: linear in the file's length). */
export function parseGoMod(text: string): GoMod | undefined {
  let module: string | undefined;
  let go: string | undefined;
  for (const raw of text.split("\n")) {
    const comment = raw.indexOf("//");
    const words = (comment < 0 ? raw : raw.slice(0, comment)).trim().split(/[ \t]+/);
    if (words.length !== 2) continue;
    if (words[0] === "module" && module === undefined) module = words[1]!.replace(/^"(.*)"$/, "$1");
    else if (words[0] === "go" && go === undefined) go = words[1];
  }
  if (!module || /[\s"]/.test(module)) return undefined;
  return { module, ...(go && { go }) };
}

export function readGoMod(path: string): GoMod | undefined {
  if (!existsSync(path)) return undefined;
  const mod = parseGoMod(readText(path));
  if (!mod) throw new ExecutaError(`${path} has no module line`, { hint: "run `go mod init <module path>`" });
  return mod;
}
