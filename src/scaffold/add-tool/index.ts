/**
 * `executa add tool`: a new tool and its test, written the way the project's template writes
 * tools, as two new files (never an edit of the author's), then manifest.json and the bindings
 * regenerated. Every refusal happens before anything is written; a manifest that does not
 * generate afterwards removes what was written.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../../common/errors.js";
import { TEMPLATES_DIR } from "../../common/package-info.js";
import { generateManifest, writeOutputs, type Generated } from "../../manifest/index.js";
import { formatDiagnostic, hasErrors } from "../../protocol/index.js";
import {
  bindingsFileName,
  LANGUAGES,
  languagePath,
  loadProject,
  packageManagerOfProject,
  projectVenv,
  pyModuleOf,
  runScript,
  type Language,
  type SourceProject,
} from "../../project/index.js";
import { commentLine } from "../escape.js";
import { executaCommand } from "../executa-command.js";
import { renderTemplateFile, type RenderedFile } from "../render.js";
import { removeCreated, writeProject } from "../write.js";
import { goIdentifiers, toolContext, type NewTool } from "./context.js";
import { toolLayout, type ToolLayout } from "./layout.js";
import { checkNames } from "./names.js";
import { parseParams } from "./params.js";

export { parseParam } from "./params.js";
export { TOOL_NAME } from "./names.js";

export interface AddToolOptions {
  dir: string;
  name: string;
  /** The tool's description; a TODO placeholder when absent. */
  description?: string;
  /** `--param` specs (params.ts). */
  params?: readonly string[];
  timeout?: number;
  dryRun?: boolean;
}

export interface AddToolResult {
  /** --dry-run: nothing was written. */
  dryRun: boolean;
  tool: string;
  language: Language;
  dir: string;
  /** The new files, project-relative. */
  files: string[];
  /** The generated files this rewrote (manifest.json, the bindings); with --dry-run, the ones it would. */
  regenerated: string[];
  /** What the author does next. */
  next: string[];
}

const SNIPPETS: Record<Language, { tool: string; test: string }> = {
  ts: { tool: "tool.ts.hbs", test: "tool.test.ts.hbs" },
  python: { tool: "tool.py.hbs", test: "test_tool.py.hbs" },
  go: { tool: "tool.go.hbs", test: "tool_test.go.hbs" },
};

function refuse(message: string, hint: string): never {
  throw new ExecutaError(message, { hint });
}

/** A project add tool can write into: one of ours, with its vendored runtime. */
function loadTarget(dir: string): { project: SourceProject; pyPackage: string } {
  const project = loadProject(dir);
  const pyPackage = project.language === "python" ? pyModuleOf(project) : "";
  const runtime = languagePath(LANGUAGES[project.language].runtimeDir, pyPackage);
  if (!existsSync(join(project.dir, runtime))) {
    refuse(
      `${project.dir} has no vendored runtime in ${runtime}/, so add tool cannot write a tool for it`,
      "add tool writes tools for projects made by create-executa; write the tool by hand, then run `executa manifest`",
    );
  }
  return { project, pyPackage };
}

/** The manifest as the project's code says now; refuses when it does not generate. */
async function currentManifest(dir: string): Promise<Generated> {
  const generated = await generateManifest(dir);
  const errors = generated.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) {
    refuse(
      `the project's manifest does not generate now, so a new tool could not be checked:\n${errors.map(formatDiagnostic).join("\n")}`,
      "fix these first (`executa manifest` shows them), then add the tool",
    );
  }
  return generated;
}

/** Go: the identifiers the tool declares must be free in package main (whole words of any .go file there). */
function checkGoIdentifiers(project: SourceProject, tool: NewTool): void {
  const sources = readdirSync(project.dir).filter((f) => f.endsWith(".go") && f !== bindingsFileName("go"));
  const ids = goIdentifiers(tool);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice)
    refuse(
      `the tool '${tool.name}' would declare ${twice} twice (its arguments type and an enum type, or two enum types)`,
      "rename the parameter",
    );
  for (const id of ids) {
    const word = new RegExp(`\\b${id}\\b`);
    const file = sources.find((f) => word.test(readFileSync(join(project.dir, f), "utf8")));
    if (file)
      refuse(
        `${id}, which the tool '${tool.name}' would declare, is already used in ${file}`,
        "choose another tool name",
      );
  }
}

function checkFree(project: SourceProject, layout: ToolLayout): void {
  for (const path of [layout.tool, layout.test, ...layout.alsoFree]) {
    if (existsSync(join(project.dir, path)))
      refuse(
        `${path} already exists, and add tool never overwrites a file`,
        "choose another tool name, or move that file away",
      );
  }
}

async function render(lang: Language, layout: ToolLayout, context: object): Promise<RenderedFile[]> {
  const dir = join(TEMPLATES_DIR, "add-tool", lang);
  return [
    {
      path: layout.tool,
      content: Buffer.from(await renderTemplateFile(join(dir, SNIPPETS[lang].tool), context)),
      mode: 0o644,
    },
    {
      path: layout.test,
      content: Buffer.from(await renderTemplateFile(join(dir, SNIPPETS[lang].test), context)),
      mode: 0o644,
    },
  ];
}

function nextSteps(project: SourceProject, layout: ToolLayout): string[] {
  const pm = { name: packageManagerOfProject(project.dir) };
  const test = {
    ts: runScript(pm, "test"),
    python: `${projectVenv(project.dir) ? ".venv/bin/python" : "python3"} -m pytest`,
    go: "go test ./...",
  }[project.language];
  const executa = executaCommand(pm, project.language === "ts");
  return [
    `write the tool in ${layout.tool} and its test in ${layout.test}`,
    `run ${test}`,
    `run ${executa} manifest after changing its parameters`,
  ];
}

export async function addTool(options: AddToolOptions): Promise<AddToolResult> {
  const { project, pyPackage } = loadTarget(options.dir);
  const lang = project.language;
  const params = parseParams(options.params ?? []);
  checkNames(lang, options.name, params);
  if (options.timeout !== undefined && !(Number.isInteger(options.timeout) && options.timeout > 0)) {
    refuse(`--timeout must be a whole number of seconds above 0, not ${options.timeout}`, "e.g. --timeout 30");
  }
  const description = options.description?.trim() || `TODO: describe what ${options.name} does.`;
  if (lang === "ts" && /(^|\s)@/.test(commentLine(description))) {
    refuse(
      "in a TypeScript description, an @ after a space starts a JSDoc tag, which would cut the description there",
      "write it without the space, e.g. (at) or `@name` in backticks",
    );
  }
  const tool: NewTool = {
    name: options.name,
    description,
    params,
    ...(options.timeout && { timeout: options.timeout }),
  };
  const before = await currentManifest(project.dir);
  if (before.manifest.tools.some((t) => t.name === tool.name))
    refuse(`the project already has a tool named '${tool.name}'`, "choose another name");
  const layout = toolLayout(lang, tool.name, pyPackage);
  checkFree(project, layout);
  if (lang === "go") checkGoIdentifiers(project, tool);

  const files = await render(lang, layout, toolContext(lang, tool, layout, pyPackage));
  const result: AddToolResult = {
    dryRun: false,
    tool: tool.name,
    language: lang,
    dir: project.dir,
    files: files.map((f) => f.path),
    regenerated: [],
    next: nextSteps(project, layout),
  };
  if (options.dryRun) return { ...result, dryRun: true, regenerated: before.outputs.map((o) => o.path) };

  const created = await writeProject(project.dir, files);
  try {
    const after = await generateManifest(project.dir);
    if (hasErrors(after.diagnostics)) {
      const errors = after.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic);
      refuse(
        `the manifest does not generate with the new tool, so nothing was kept:\n${errors.join("\n")}`,
        "this is a bug in create-executa if the project generated before; please report it with the command you ran",
      );
    }
    result.regenerated = await writeOutputs(project.dir, after.outputs);
  } catch (error) {
    await removeCreated(created);
    throw error;
  }
  return result;
}
