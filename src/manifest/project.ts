/** A plugin project on disk: its language and the files the manifest's plugin-level fields come from. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";

export type Language = "ts" | "python" | "go";

export interface Project {
  dir: string;
  language: Language;
  /** executa.json, parsed (an empty object when the file is absent). */
  executa: Record<string, unknown>;
  hasExecutaJson: boolean;
  packageJson?: Record<string, unknown>;
  pyproject?: PyProject;
  goModule?: string;
}

export interface PyProject {
  name?: string;
  version?: string;
  description?: string;
  license?: string;
  authors?: string;
}

function readJson(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ExecutaError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
    return value as Record<string, unknown>;
  } catch (error) {
    throw new ExecutaError(`${path} is not valid JSON: ${(error as Error).message}`, { hint: "fix the file and run the command again" });
  }
}

function tomlString(raw: string): string | undefined {
  const m = /^\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(raw);
  if (!m) return undefined;
  return m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : m[2];
}

/** The few `[project]` keys the manifest needs, read without a TOML library. */
export function parsePyProject(text: string): PyProject {
  const out: PyProject = {};
  let table = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    if (table !== "project") continue;
    const kv = /^\s*([A-Za-z0-9_-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const [, key, raw] = kv as unknown as [string, string, string];
    if (key === "name" || key === "version" || key === "description") out[key] = tomlString(raw);
    else if (key === "license") out.license = tomlString(raw) ?? /text\s*=\s*("[^"]*")/.exec(raw)?.[1]?.slice(1, -1);
    else if (key === "authors") out.authors = /name\s*=\s*"([^"]*)"/.exec(raw)?.[1];
  }
  return out;
}

export function parseGoModule(text: string): string | undefined {
  return /^\s*module\s+("?)([^\s"]+)\1\s*$/m.exec(text)?.[2];
}

const TYPE_TO_LANGUAGE: Record<string, Language> = { node: "ts", python: "python", go: "go" };

/** Reads the project: the language from executa.json `type`, else from package.json, pyproject.toml or go.mod. */
export function loadProject(dir: string): Project {
  if (!existsSync(dir)) throw new ExecutaError(`no such directory: ${dir}`);
  const executaPath = join(dir, "executa.json");
  const hasExecutaJson = existsSync(executaPath);
  const executa = hasExecutaJson ? readJson(executaPath) : {};
  const packageJson = existsSync(join(dir, "package.json")) ? readJson(join(dir, "package.json")) : undefined;
  const pyPath = join(dir, "pyproject.toml");
  const pyproject = existsSync(pyPath) ? parsePyProject(readFileSync(pyPath, "utf8")) : undefined;
  const goPath = join(dir, "go.mod");
  const goModule = existsSync(goPath) ? parseGoModule(readFileSync(goPath, "utf8")) : undefined;

  let language: Language | undefined;
  const type = executa.type;
  if (typeof type === "string" && type in TYPE_TO_LANGUAGE) language = TYPE_TO_LANGUAGE[type];
  else if (type !== undefined && type !== "binary") {
    throw new ExecutaError(`executa.json: unknown type ${JSON.stringify(type)}`, { hint: 'use "node", "python" or "go"' });
  }
  language ??= packageJson ? "ts" : pyproject ? "python" : existsSync(goPath) ? "go" : undefined;
  if (!language) {
    throw new ExecutaError(`cannot tell the language of the project in ${dir}`, {
      hint: 'set "type" in executa.json to "node", "python" or "go", or run `executa manifest --from-plugin -- <command>`',
    });
  }
  return { dir, language, executa, hasExecutaJson, packageJson, pyproject, goModule };
}
