/** What `executa build` needs of the project: its language, what to package, the executable's name and the committed manifest. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import {
  entryOf,
  loadAnyProject,
  manifestFromPlugin,
  MANIFEST_PATH,
  pyModuleOf,
  type JsonObject,
  type Language,
} from "../project/index.js";
import type { Manifest } from "../protocol/index.js";

export type { Language };
/** A plugin's build language: one of ours, or a prebuilt executable that is packaged as it is. */
export type BuildLanguage = Language | "binary";

export interface BuildProject {
  dir: string;
  language: BuildLanguage;
  executaJson?: JsonObject;
  /** The executable's name: executa.json tool_id, else its name, else the manifest's name. */
  name: string;
  manifestText: string;
  manifest: Manifest;
  /**
   * executa.json `entry`: what is packaged instead of a generated project's (src/main.ts, the
   * package's __main__.py, the root Go package); for a binary, the executable itself.
   */
  entry?: string;
  /** Python without an entry: the package folder holding __main__.py. */
  pyModule?: string;
  /** manifest.json is the running plugin's describe: a describe without a name is checked as if it named this (executa.json's tool_id). */
  describeName?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

function readManifest(dir: string): { manifestText: string; manifest: Manifest } {
  const manifestPath = join(dir, MANIFEST_PATH);
  if (!existsSync(manifestPath)) {
    throw new ExecutaError(`no manifest.json in ${dir}`, {
      hint: "run `executa manifest` to generate it, then build again",
    });
  }
  const manifestText = readFileSync(manifestPath, "utf8");
  try {
    return { manifestText, manifest: JSON.parse(manifestText) as Manifest };
  } catch (error) {
    throw new ExecutaError(`manifest.json is not valid JSON: ${(error as Error).message}`, {
      hint: "run `executa manifest` to regenerate it",
    });
  }
}

function checkedName(raw: string | undefined): string {
  if (!raw) throw new ExecutaError("the plugin has no name", { hint: "set tool_id in executa.json" });
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(raw)) {
    throw new ExecutaError(`the plugin name '${raw}' cannot be a file name`, {
      hint: "use letters, digits, '.', '-' and '_' in tool_id",
    });
  }
  return raw;
}

export function readProject(dirIn: string): BuildProject {
  const project = loadAnyProject(dirIn);
  const { dir, executaJson } = project;
  const describeName = manifestFromPlugin(executaJson) ? str(executaJson?.tool_id) : undefined;
  const { manifestText, manifest } = readManifest(dir);
  if (project.language === "binary") {
    if (!project.executable) {
      throw new ExecutaError(`executa.json says type "binary" but names no executable to package`, {
        hint: 'set "entry" to the executable\'s path in the folder, e.g. "entry": "bin/my-plugin"',
      });
    }
    const name = checkedName(project.toolId ?? str(project.executaJson.name) ?? manifest.name);
    return {
      dir,
      language: "binary",
      executaJson: project.executaJson,
      name,
      manifestText,
      manifest,
      entry: project.executable,
      ...(describeName && { describeName }),
    };
  }
  const name = checkedName([project.toolId, executaJson?.name, manifest.name].map(str).find(Boolean));
  const entry = entryOf(dir, executaJson);
  return {
    dir,
    language: project.language,
    ...(executaJson && { executaJson }),
    name,
    manifestText,
    manifest,
    ...(entry && { entry }),
    ...(project.language === "python" && !entry && { pyModule: pyModuleOf(project) }),
    ...(describeName && { describeName }),
  };
}
