/** Renders a language template into a list of files, in memory. */
import Handlebars from "handlebars";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { goString, jsonString, markdownText, pythonString, tomlString, yamlString } from "./escape.js";
import type { PackageManagerContext } from "./package-manager.js";
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
  /** The package manager's command lines (READMEs, TypeScript scripts and workflow). */
  pm: PackageManagerContext;
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
  /** Our own command lines in code blocks, padded so that their comments line up. */
  pad: (text: unknown, width: unknown) => String(text).padEnd(Number(width)),
  concat: (...parts: unknown[]) => parts.slice(0, -1).join(""),
  eq: (a: unknown, b: unknown) => a === b,
});

/** Files whose real name starts with a dot (npm would drop or act on them inside the package). */
const DOTFILES = new Set(["_gitignore", "_yarnrc.yml"]);

/** Name rules applied on copy: `_gitignore` -> `.gitignore`, `__pyModule__` -> the module, `.hbs` dropped. */
function outputPath(templatePath: string, context: TemplateContext): string {
  return templatePath
    .replace(/\.hbs$/, "")
    .split("/")
    .map((part) => (DOTFILES.has(part) ? `.${part.slice(1)}` : part.replaceAll("__pyModule__", context.pyModule)))
    .join("/");
}

/** Every file under dir, folder by folder (Yarn's PnP file system, which `yarn dlx` runs us from, has no recursive readdir). */
async function listFiles(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, path)));
    else if (e.isFile()) out.push(path);
  }
  return out.sort();
}

/** One handlebars file with the project templates' helpers (`add tool` renders its snippets, `init` a language's workflow). */
export async function renderTemplateFile(path: string, context: object): Promise<string> {
  return engine.compile(await readFile(path, "utf8"), { noEscape: true, strict: true })(context);
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
