/**
 * The executa.json `executa init` writes: Anna's fields (tool_id, type, name, version, and
 * `command` whenever Anna's default launch for the type would not start the plugin), ours
 * (`entry`, `manifest_source`), and the plugin-level fields of the running plugin's describe.
 */
import { join, relative } from "node:path";
import { which } from "../../common/exec.js";
import {
  goEntryArgs,
  MANIFEST_FROM_PLUGIN,
  projectPython,
  projectVenv,
  pythonEntry,
  readJsonObject,
  readPyProject,
  type ExecutaType,
  type JsonObject,
} from "../../project/index.js";
import { PLUGIN_LEVEL_FIELDS, type Manifest } from "../../protocol/index.js";
import type { PluginChoice } from "./plugin.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The file Anna's default launch of a Node plugin starts: package.json bin[tool_id], else a string bin, else main. */
function annaNodeEntry(dir: string, toolId: string): string | undefined {
  const pkg = readJsonObject(join(dir, "package.json"));
  if (!pkg) return undefined;
  const bin = pkg.bin;
  const file =
    typeof bin === "string" ? bin : bin && typeof bin === "object" ? str((bin as JsonObject)[toolId]) : undefined;
  return (file ?? str(pkg.main))?.replace(/^\.\//, "");
}

/** executa.json `command`, and a note when it is not Anna's own launch because a tool it needs is missing here. */
export interface AdoptedCommand {
  command?: string[];
  note?: string;
}

/** `python -c` code that puts the folder (and src/) on sys.path, imports `module` and calls `func` as a console script does. */
function pythonCall(module: string, func: string): string {
  return `import sys; sys.path[:0] = ["", "src"]; from ${module} import ${func.split(".")[0]}; sys.exit(${func}())`;
}

/**
 * A pyproject script's launch. Anna runs `uv run --project <dir> <script>`; without uv on this
 * machine that would fail in test, dev and manifest (spawn uv ENOENT), so the command is then the
 * project's interpreter calling the script's function, with a note saying what to install.
 */
function pyprojectScriptCommand(dir: string, script: string, module: string, func: string): AdoptedCommand {
  if (which("uv")) return { command: ["uv", "run", "--project", ".", script] };
  const venv = projectVenv(dir);
  const python = venv ? relative(dir, projectPython(dir)!) : "python3";
  return {
    command: [python, "-c", pythonCall(module, func)],
    note: `uv is not installed, so executa.json's command runs the script's function with ${python} instead of Anna's \`uv run --project . ${script}\`; to use uv, install it (python3 -m pip install uv) and set "command" to ["uv", "run", "--project", ".", "${script}"]`,
  };
}

/** Anna's launch of an entry: no command when its default for the type already starts that entry. */
export function annaCommand(dir: string, type: ExecutaType, entry: string, toolId: string): AdoptedCommand {
  switch (type) {
    case "node":
      return { command: annaNodeEntry(dir, toolId) === entry ? undefined : ["node", entry] };
    case "python": {
      const py = pythonEntry(dir, entry);
      if (py.kind === "package") return { command: ["python3", "-m", py.name] };
      if (py.kind === "script") return { command: ["python3", py.file] };
      // A pyproject script: Anna runs `uv run --project <dir> <tool_id>`, which starts the script named tool_id.
      const script = readPyProject(join(dir, "pyproject.toml"))?.scripts.find(([, target]) => target === entry)?.[0];
      return script === toolId ? {} : pyprojectScriptCommand(dir, script ?? toolId, py.module, py.func);
    }
    case "go":
      return { command: entry === "." ? undefined : ["go", "run", ...goEntryArgs(dir, entry)] };
    case "binary":
      return { command: entry === `bin/${toolId}` ? undefined : [`./${entry}`] };
  }
}

/** executa.json for the adopted plugin, in Anna's field order. */
export function executaJsonFor(
  choice: PluginChoice,
  toolId: string,
  manifest: Manifest,
  command: string[] | undefined,
): JsonObject {
  const json: JsonObject = {
    tool_id: toolId,
    type: choice.type,
    name: manifest.name ?? toolId,
    version: manifest.version,
    ...(command && { command }),
    ...(choice.entry && { entry: choice.entry }),
    manifest_source: MANIFEST_FROM_PLUGIN,
  };
  for (const key of PLUGIN_LEVEL_FIELDS) if (manifest[key] !== undefined) json[key] = manifest[key];
  return json;
}
