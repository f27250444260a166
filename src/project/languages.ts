/** The plugin languages and the facts each one carries: the one table every command reads. */
import { ExecutaError } from "../common/errors.js";

export const LANGUAGES = {
  ts: {
    title: "TypeScript",
    aliases: ["typescript", "node"],
    /** `type` in executa.json. */
    executaType: "node",
    /** The file that marks a project of this language. */
    marker: "package.json",
    /** The vendored runtime, project-relative (`{pyModule}` is the Python package). */
    runtimeDir: "src/executa",
    bindingsPath: "src/executa.bindings.ts",
    testCommand: "npm test",
  },
  python: {
    title: "Python",
    aliases: ["py"],
    executaType: "python",
    marker: "pyproject.toml",
    runtimeDir: "{pyModule}/executa",
    bindingsPath: "{pyModule}/executa_bindings.py",
    testCommand: "python3 -m pytest",
  },
  go: {
    title: "Go",
    aliases: ["golang"],
    executaType: "go",
    marker: "go.mod",
    runtimeDir: "internal/executa",
    bindingsPath: "executa_bindings.go",
    testCommand: "go test ./...",
  },
} as const;

export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_NAMES = Object.keys(LANGUAGES) as Language[];

/** The language of an executa.json `type`, or undefined (`binary`, unknown). */
export function languageOfType(type: unknown): Language | undefined {
  return LANGUAGE_NAMES.find((l) => LANGUAGES[l].executaType === type);
}

/** `--lang` and its aliases; an unknown value lists the valid ones. */
export function resolveLanguage(value: string): Language {
  const v = value.trim().toLowerCase();
  for (const lang of LANGUAGE_NAMES) {
    if (lang === v || (LANGUAGES[lang].aliases as readonly string[]).includes(v)) return lang;
  }
  throw new ExecutaError(`unknown language '${value}'`, {
    hint: `use --lang with one of: ${LANGUAGE_NAMES.join(", ")}`,
  });
}

/** The folder name that stands for a Python project's package in the templates (templates/python/__pyModule__/). */
export const TEMPLATE_PY_MODULE = "__pyModule__";

/** The describe result's file, in the project root. */
export const MANIFEST_PATH = "manifest.json";

/**
 * The project-relative path of the language's generated bindings file; for Python, in the package
 * folder (`pyPackageDir`, project-relative, "" for the project root).
 */
export function bindingsPath(language: Language, pyPackageDir?: string): string {
  const template: string = LANGUAGES[language].bindingsPath;
  if (pyPackageDir === "") return template.replace("{pyModule}/", "");
  return languagePath(template, pyPackageDir);
}

/** The file name of the language's bindings file (what the extractors never read as a source). */
export function bindingsFileName(language: Language): string {
  return LANGUAGES[language].bindingsPath.split("/").pop()!;
}

/** The base names of every file `executa manifest` writes, in any language (what a watcher ignores). */
export const GENERATED_FILE_NAMES: readonly string[] = [MANIFEST_PATH, ...LANGUAGE_NAMES.map(bindingsFileName)];

/** A project-relative path of the language's table with `{pyModule}` filled in. */
export function languagePath(template: string, pyModule: string | undefined): string {
  if (template.includes("{pyModule}") && !pyModule) throw new ExecutaError("the project's Python package is unknown");
  return template.replace("{pyModule}", pyModule ?? "");
}
