/** Renders a language template into a list of files, in memory. */
import Handlebars from "handlebars";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { goString, jsonString, markdownText, pythonString, tomlString, yamlString } from "./escape.js";
import type { ProjectSpec } from "./spec.js";

export interface RenderedFile {
  /** Project-relative path with `/` separators. */
  path: string;
  content: Buffer;
  mode: number;
}

export interface TemplateContext extends ProjectSpec {
  toolchainSpec: string;
  year: number;
  /** The generated workflow's build matrix: each target `executa build` accepts for the language, and its runner. */
  buildMatrix: ReadonlyArray<{ target: string; os: string }>;
}

const engine = Handlebars.create();
const literal = (escape: (text: string) => string) => (value: unknown) => escape(value == null ? "" : String(value));
engine.registerHelper({
  json: (value: unknown) => (typeof value === "string" || value == null ? jsonString(String(value ?? "")) : JSON.stringify(value)),
  toml: literal(tomlString),
  py: literal(pythonString),
  go: literal(goString),
  yaml: literal(yamlString),
  md: literal(markdownText),
});

/** Name rules applied on copy: `_gitignore` -> `.gitignore`, `__pyModule__` -> the module, `.hbs` dropped. */
function outputPath(templatePath: string, context: TemplateContext): string {
  return templatePath
    .split("/")
    .map((part) => (part === "_gitignore" ? ".gitignore" : part.replaceAll("__pyModule__", context.pyModule)))
    .join("/")
    .replace(/\.hbs$/, "");
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
}

export async function renderTemplate(templateDir: string, context: TemplateContext): Promise<RenderedFile[]> {
  const files: RenderedFile[] = [];
  for (const path of await listFiles(templateDir)) {
    const source = join(templateDir, path);
    const { mode } = await stat(source);
    let content = await readFile(source);
    if (path.endsWith(".hbs")) {
      const template = engine.compile(content.toString("utf8"), { noEscape: true, strict: true });
      content = Buffer.from(template(context), "utf8");
    }
    files.push({ path: outputPath(path, context), content, mode: mode & 0o777 });
  }
  return files;
}

/** Renders one template file with its own context (`executa init` renders a language's workflow for a plugin it adopts). */
export async function renderTemplateFile(path: string, context: object): Promise<string> {
  return engine.compile(await readFile(path, "utf8"), { noEscape: true, strict: true })(context);
}
