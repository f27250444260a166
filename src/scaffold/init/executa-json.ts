/**
 * The executa.json `executa init` writes: Anna's fields (tool_id, type, name, version, and
 * `command` whenever Anna's default launch for the type would not start the plugin), ours
 * (`entry`, `manifest_source`), and the plugin-level fields of the running plugin's describe.
 */
import { join } from "node:path";
import {
  goEntryArgs, MANIFEST_FROM_PLUGIN, pythonEntry, readJsonObject, readPyProject, type ExecutaType, type JsonObject,
} from "../../project/index.js";
import { PLUGIN_LEVEL_FIELDS, type Manifest } from "../../protocol/index.js";
import type { PluginChoice } from "./plugin.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The file Anna's default launch of a Node plugin starts: package.json bin[tool_id], else a string bin, else main. */
function annaNodeEntry(dir: string, toolId: string): string | undefined {
  const pkg = readJsonObject(join(dir, "package.json"));
  if (!pkg) return undefined;
  const bin = pkg.bin;
  const file = typeof bin === "string" ? bin : bin && typeof bin === "object" ? str((bin as JsonObject)[toolId]) : undefined;
  return (file ?? str(pkg.main))?.replace(/^\.\//, "");
}

/** Anna's launch of an entry: undefined when its default for the type already starts that entry. */
export function annaCommand(dir: string, type: ExecutaType, entry: string, toolId: string): string[] | undefined {
  switch (type) {
    case "node":
      return annaNodeEntry(dir, toolId) === entry ? undefined : ["node", entry];
    case "python": {
      const py = pythonEntry(dir, entry);
      if (py.kind === "package") return ["python3", "-m", py.name];
      if (py.kind === "script") return ["python3", py.file];
      // A pyproject script: Anna runs `uv run --project <dir> <tool_id>`, which starts the script named tool_id.
      const script = readPyProject(join(dir, "pyproject.toml"))?.scripts.find(([, target]) => target === entry)?.[0];
      return script === toolId ? undefined : ["uv", "run", "--project", ".", script ?? toolId];
    }
    case "go":
      return entry === "." ? undefined : ["go", "run", ...goEntryArgs(dir, entry)];
    case "binary":
      return entry === `bin/${toolId}` ? undefined : [`./${entry}`];
  }
}

/** executa.json for the adopted plugin, in Anna's field order. */
export function executaJsonFor(choice: PluginChoice, toolId: string, manifest: Manifest, command: string[] | undefined): JsonObject {
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
