/** A project to scaffold: the answers, validated, and the names every language derives from them. */
import { builtinModules } from "node:module";
import { ExecutaError } from "../common/errors.js";
import {
  DEFAULT_TEMPLATE,
  resolveLanguage,
  resolveTemplate,
  type Language,
  type TemplateName,
} from "../project/index.js";
import goStd from "../../data/generated/go-std-packages.json" with { type: "json" };
import pythonStdlib from "./python-stdlib.json" with { type: "json" };
import { PYTHON_KEYWORDS, PYTHON_SOFT_KEYWORDS } from "./python-keywords.js";

export { resolveLanguage, type Language } from "../project/index.js";

export interface ProjectAnswers {
  lang?: string;
  name?: string;
  displayName?: string;
  description?: string;
  author?: string;
  license?: string;
  toolId?: string;
  goModule?: string;
  /** `minimal`, `examples` (the default) or `services`. */
  template?: string;
}

export interface ProjectSpec {
  lang: Language;
  template: TemplateName;
  name: string;
  displayName: string;
  description: string;
  author: string;
  license: string;
  toolId: string;
  pyModule: string;
  goModule: string;
  version: string;
}

const PY_STDLIB = new Set<string>(pythonStdlib);
const NPM_RESERVED = new Set(["node_modules", "favicon.ico", ...builtinModules]);
const GO_STD = new Set<string>(goStd.packages);

export const NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/;
export const TOOL_ID_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/;
const GO_MODULE_PATTERN = /^[a-z0-9][a-z0-9.-]*[a-z0-9](?:\/[A-Za-z0-9._~-]+)*$|^[a-z0-9]$/;
const SPDX_PATTERN = /^(?:[A-Za-z0-9.+-]+|\([^)]+\))(?: (?:AND|OR|WITH) (?:[A-Za-z0-9.+-]+|\([^)]+\)))*$/;

/** The Python module a project name gives: `my-plugin` -> `my_plugin`. */
export function pythonModuleOf(name: string): string {
  return name.replace(/[-.]/g, "_");
}

/**
 * Why a project name is unusable, or undefined when it is fine. The rules of a language apply to
 * its projects only (npm's to TypeScript, Python's to Python); without `lang`, only the shape.
 */
export function nameProblem(name: string, lang?: Language): string | undefined {
  if (!name) return "the name is empty";
  if (name.length > 64) return "the name is longer than 64 characters";
  if (!NAME_PATTERN.test(name)) {
    return "the name must start with a lowercase letter and hold only lowercase letters, digits and single - _ . between them (it becomes an npm package, a Python module and a Go module path)";
  }
  if (lang === "ts" && NPM_RESERVED.has(name)) return `'${name}' is reserved on npm (a Node built-in module)`;
  const mod = pythonModuleOf(name);
  if (lang === "python" && (PYTHON_KEYWORDS.has(mod) || PYTHON_SOFT_KEYWORDS.has(mod)))
    return `'${mod}' is a Python keyword and cannot be imported`;
  if (lang === "python" && PY_STDLIB.has(mod))
    return `'${mod}' would shadow Python's standard library module of that name`;
  return undefined;
}

/** Why a Go module path is unusable, or undefined when it is fine. */
export function goModuleProblem(path: string): string | undefined {
  if (!GO_MODULE_PATTERN.test(path))
    return "a Go module path is lowercase host-like first element, then /-separated path elements";
  if (GO_STD.has(path))
    return `'${path}' is a package of Go's standard library, so every import of it would be ambiguous and nothing would build`;
  return undefined;
}

function requireValid(problem: string | undefined, what: string, example: string): void {
  if (problem) throw new ExecutaError(`invalid ${what}: ${problem}`, { hint: `for example ${example}` });
}

function titleCase(name: string): string {
  return name
    .split(/[-_.]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** Validates the answers and fills in every default; throws an ExecutaError (exit 2) on bad input. */
export function makeSpec(answers: ProjectAnswers & { lang: string; name: string }): ProjectSpec {
  const lang = resolveLanguage(answers.lang);
  const name = answers.name.trim();
  requireValid(nameProblem(name, lang), `name '${name}'`, "--name my-plugin");
  const toolId = (answers.toolId ?? name).trim();
  requireValid(
    TOOL_ID_PATTERN.test(toolId)
      ? undefined
      : "a tool id holds lowercase letters, digits, '.', '_' and '-', starts and ends with a letter or digit, and is at most 128 characters",
    `tool id '${toolId}'`,
    "--tool-id tool-acme-my-plugin",
  );
  const goModule = (answers.goModule ?? name).trim();
  requireValid(
    lang === "go" ? goModuleProblem(goModule) : undefined,
    `Go module path '${goModule}'`,
    "--go-module github.com/acme/my-plugin",
  );
  const license = (answers.license ?? "MIT").trim();
  requireValid(
    SPDX_PATTERN.test(license) ? undefined : "use an SPDX identifier or expression",
    `license '${license}'`,
    "--license Apache-2.0",
  );
  const displayName = answers.displayName?.trim() || titleCase(name);
  const description = answers.description?.trim() || `${displayName}: an Executa plugin for Anna.`;
  return {
    lang,
    template: answers.template === undefined ? DEFAULT_TEMPLATE : resolveTemplate(answers.template),
    name,
    displayName,
    description,
    author: answers.author?.trim() ?? "",
    license,
    toolId,
    pyModule: pythonModuleOf(name),
    goModule,
    version: "0.1.0",
  };
}
