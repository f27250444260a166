/** Renders a language template into a list of files, in memory. */
import Handlebars from "handlebars";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { pinnedAction, toolchainVersion, type WorkflowPins } from "../builder/targets/index.js";
import { TEMPLATE_PY_MODULE } from "../project/index.js";
import { goString, jsonString, markdownText, pythonString, pythonValue, tomlString, yamlString } from "./escape.js";
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
  /** What the chosen template (spec.template) says in every language: templates/variants/<name>.json. */
  variant: VariantFacts;
}

/** templates/variants/<name>.json: the facts of one template that every language renders alike. */
export interface VariantFacts {
  /** The README's tools table. */
  tools: { name: string; summary: string }[];
  /** Paragraphs (Markdown) under the tools table. */
  notes: string[];
  /** executa.json `credentials` and `host_capabilities`. */
  credentials: object[];
  host_capabilities: string[];
  /**
   * The invoke the protocol test sends (and the README's "try it"): the host's answers to the
   * plugin's requests by method, and the `data` of the result.
   */
  probe: { tool: string; arguments: Record<string, unknown>; host: Record<string, unknown>; data: unknown };
  /** Derived: the probe needs a protocol 2.0 host (so the README tries it under `executa dev`). */
  needsHost: boolean;
}

const engine = Handlebars.create();
const literal = (quote: (text: string) => string) => (value: unknown) => quote(value == null ? "" : String(value));
engine.registerHelper({
  json: (value: unknown) =>
    typeof value === "string" || value == null ? jsonString(String(value ?? "")) : JSON.stringify(value),
  toml: literal(tomlString),
  py: literal(pythonString),
  go: literal(goString),
  yaml: literal(yamlString),
  md: literal(markdownText),
  /** Our own command lines in code blocks, padded so that their comments line up. */
  pad: (text: unknown, width: unknown) => String(text).padEnd(Number(width)),
  concat: (...parts: unknown[]) => parts.slice(0, -1).join(""),
  eq: (a: unknown, b: unknown) => a === b,
  /** A JSON value over several lines, every line after the first indented by `indent` spaces. */
  jsonPretty: (value: unknown, indent: unknown) =>
    JSON.stringify(value, null, 2).replaceAll("\n", "\n" + " ".repeat(Number(indent))),
  /** A template's probe (VariantFacts) as the params of an invoke, and as one invoke frame with this id. */
  invokeParams: (probe: VariantFacts["probe"]) => ({ tool: probe.tool, arguments: probe.arguments }),
  invokeFrame: (probe: VariantFacts["probe"], id: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", id, method: "invoke", params: { tool: probe.tool, arguments: probe.arguments } }),
  /** A workflow's `uses:` value: the action pinned by commit, its tag in a comment. */
  action: (name: unknown) => pinnedAction(String(name)),
  /** The exact version of a toolchain piece (python, pyinstaller, node, go...) the workflows install. */
  toolchain: (name: unknown) => toolchainVersion(String(name) as keyof WorkflowPins["toolchain"]),
  /** A JSON value as a Python literal. */
  pyValue: (value: unknown) => pythonValue(value),
});

/** Files whose real name starts with a dot (npm would drop or act on them inside the package). */
const DOTFILES = new Set(["_gitignore", "_yarnrc.yml"]);

/** Name rules applied on copy: `_gitignore` -> `.gitignore`, `__pyModule__` -> the module, `.hbs` dropped. */
function outputPath(templatePath: string, context: TemplateContext): string {
  return templatePath
    .replace(/\.hbs$/, "")
    .split("/")
    .map((part) => (DOTFILES.has(part) ? `.${part.slice(1)}` : part.replaceAll(TEMPLATE_PY_MODULE, context.pyModule)))
    .join("/");
}

/** Folders never copied: the templates' variants (rendered on their own) and Python's byte-code caches. */
const SKIPPED_DIRS = new Set(["variants", "__pycache__"]);

/**
 * Every file under dir, folder by folder (Yarn's PnP file system, which `yarn dlx` runs us from,
 * has no recursive readdir), without the folders of SKIPPED_DIRS.
 */
export async function listFiles(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) out.push(...(await listFiles(dir, path)));
    else if (e.isFile()) out.push(path);
  }
  return out.sort();
}

/** One handlebars file with the project templates' helpers (`add tool` renders its snippets, `init` a language's workflow). */
export async function renderTemplateFile(path: string, context: object): Promise<string> {
  return engine.compile(await readFile(path, "utf8"), { noEscape: true, strict: true })(context);
}

/** templates/variants/<name>.json, with what the templates derive from it. */
export async function readVariant(templatesDir: string, template: string): Promise<VariantFacts> {
  const facts = JSON.parse(await readFile(join(templatesDir, "variants", `${template}.json`), "utf8")) as Omit<
    VariantFacts,
    "needsHost"
  >;
  return { ...facts, needsHost: Object.keys(facts.probe.host).length > 0 };
}

/**
 * A language's project for one template: the files every template shares (templates/<lang>/) and
 * the template's own (templates/<lang>/variants/<name>/), which add files and never replace one.
 */
export async function renderProject(
  languageDir: string,
  template: string,
  context: TemplateContext,
): Promise<RenderedFile[]> {
  const shared = await renderTemplate(languageDir, context);
  const own = await renderTemplate(join(languageDir, "variants", template), context);
  const clash = own.find((f) => shared.some((s) => s.path === f.path));
  if (clash) throw new Error(`templates: ${clash.path} is both shared and the ${template} template's own`);
  return [...shared, ...own].sort((a, b) => (a.path < b.path ? -1 : 1));
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
