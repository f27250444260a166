/** What `executa build` needs to know about a plugin project: language, name, manifest text. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import type { Manifest } from "../protocol/index.js";

export type Language = "ts" | "python" | "go";

export interface Project {
  dir: string;
  language: Language;
  /** The executable's name: executa.json tool_id, else its name, else the manifest's name. */
  name: string;
  manifestText: string;
  manifest: Manifest;
  /** The parsed executa.json, when there is one. */
  executaJson?: Record<string, unknown>;
  /** Python: the package folder holding __main__.py. */
  pyModule?: string;
}

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new ExecutaError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function detectLanguage(dir: string, executaJson: Record<string, unknown> | undefined): Language {
  const type = executaJson?.type;
  if (type === "go" || (type !== "node" && type !== "python" && existsSync(join(dir, "go.mod")))) return "go";
  if (type === "python" || (type !== "node" && existsSync(join(dir, "pyproject.toml")))) return "python";
  if (type === "node" || existsSync(join(dir, "package.json"))) return "ts";
  throw new ExecutaError(`cannot tell the plugin's language in ${dir}`, {
    hint: "run executa build in a plugin project: one with executa.json and package.json, pyproject.toml or go.mod",
  });
}

/** The Python package to build: [project.scripts]'s module, else the one folder with __main__.py. */
function findPyModule(dir: string): string {
  const pyproject = existsSync(join(dir, "pyproject.toml")) ? readFileSync(join(dir, "pyproject.toml"), "utf8") : "";
  const scripts = /^\[project\.scripts\]\s*$([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(pyproject)?.[1] ?? "";
  const target = /=\s*["']([A-Za-z_][\w.]*)(?::[\w.]+)?["']/.exec(scripts)?.[1]?.split(".")[0];
  if (target && existsSync(join(dir, target, "__main__.py"))) return target;
  const candidates = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "__main__.py")))
    .map((e) => e.name);
  if (candidates.length === 1) return candidates[0]!;
  throw new ExecutaError("cannot find the plugin's Python package (a folder with __main__.py)", {
    hint: "name it in pyproject.toml [project.scripts] as `<tool> = \"<package>.__main__:main\"`",
  });
}

export function readProject(dir: string): Project {
  const manifestPath = join(dir, "manifest.json");
  const executaJson = existsSync(join(dir, "executa.json")) ? readJson(join(dir, "executa.json")) : undefined;
  if (!existsSync(manifestPath)) {
    throw new ExecutaError(`no manifest.json in ${dir}`, { hint: "run `executa manifest` to generate it, then build again" });
  }
  const manifestText = readFileSync(manifestPath, "utf8");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch (error) {
    throw new ExecutaError(`manifest.json is not valid JSON: ${(error as Error).message}`, { hint: "run `executa manifest` to regenerate it" });
  }
  const language = detectLanguage(dir, executaJson);
  const raw = [executaJson?.tool_id, executaJson?.name, manifest.name].find((v) => typeof v === "string" && v) as string | undefined;
  if (!raw) throw new ExecutaError("the plugin has no name", { hint: "set tool_id in executa.json" });
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(raw)) {
    throw new ExecutaError(`the plugin name '${raw}' cannot be a file name`, { hint: "use letters, digits, '.', '-' and '_' in tool_id" });
  }
  return {
    dir,
    language,
    name: raw,
    manifestText,
    manifest,
    ...(executaJson && { executaJson }),
    ...(language === "python" && { pyModule: findPyModule(dir) }),
  };
}
