/** The manifest's plugin-level fields: name, version and the rest, from executa.json (and package.json / pyproject.toml). */
import {
  PLUGIN_LEVEL_FIELDS,
  type Diagnostic,
  type Json,
  type Manifest,
  type ToolDefinition,
} from "../protocol/index.js";
import { EXECUTA_JSON, type SourceProject } from "../project/index.js";

function personName(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { name?: unknown }).name === "string") {
    return (value as { name: string }).name;
  }
  return undefined;
}

/** What the language's package file says, for fields executa.json leaves out. */
function packageFields(project: SourceProject): {
  version?: string;
  fields: Record<string, string | undefined>;
  file?: string;
} {
  if (project.language === "ts" && project.packageJson) {
    const p = project.packageJson;
    return {
      file: "package.json",
      version: typeof p.version === "string" ? p.version : undefined,
      fields: {
        description: typeof p.description === "string" ? p.description : undefined,
        author: personName(p.author),
        license: typeof p.license === "string" ? p.license : undefined,
        homepage: typeof p.homepage === "string" ? p.homepage : undefined,
      },
    };
  }
  if (project.language === "python" && project.pyproject) {
    const p = project.pyproject;
    return {
      file: "pyproject.toml",
      version: p.version,
      fields: { description: p.description, author: p.author, license: p.license },
    };
  }
  return { fields: {} };
}

/** The manifest around `tools`: every field but `tools`, in canonical order, plus diagnostics. */
export function pluginLevelManifest(
  project: SourceProject,
  tools: ToolDefinition[],
): { manifest: Manifest; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const e = project.executaJson ?? {};
  const pkg = packageFields(project);
  const where = (key: string): Pick<Diagnostic, "file" | "path"> => ({ file: EXECUTA_JSON, path: `$.${key}` });

  let name = typeof e.tool_id === "string" && e.tool_id !== "" ? e.tool_id : undefined;
  if (!name) {
    diagnostics.push({
      severity: "error",
      ...where("tool_id"),
      message: project.executaJson ? "executa.json has no tool_id" : "the project has no executa.json",
      hint: 'add "tool_id" to executa.json; the manifest name is the tool_id',
    });
    name = "";
  }

  const own = typeof e.version === "string" ? e.version : undefined;
  if (e.version !== undefined && own === undefined) {
    diagnostics.push({ severity: "error", ...where("version"), message: "executa.json version must be a string" });
  }
  if (own !== undefined && pkg.version !== undefined && own !== pkg.version) {
    diagnostics.push({
      severity: "error",
      ...where("version"),
      message: `executa.json version ${own} differs from ${pkg.file} version ${pkg.version}`,
      hint: "make them equal, or run `executa manifest --sync-version` to copy the package version into executa.json",
    });
  }
  const version = own ?? pkg.version ?? "";
  if (version === "") {
    diagnostics.push({
      severity: "error",
      ...where("version"),
      message: "no version in executa.json",
      hint: 'add "version": "0.1.0"',
    });
  }

  const manifest: Record<string, unknown> = { name, version };
  for (const key of PLUGIN_LEVEL_FIELDS) {
    const value = e[key] ?? pkg.fields[key];
    if (value !== undefined) manifest[key] = value as Json;
  }
  manifest.description ??= "";
  manifest.tools = tools;
  return { manifest: manifest as unknown as Manifest, diagnostics };
}
