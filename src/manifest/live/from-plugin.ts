/**
 * manifest.json from a running plugin (`--from-plugin`, and every manifest of a plugin whose
 * executa.json says `"manifest_source": "plugin"`): its describe answer, a missing `name` filled in
 * with executa.json's tool_id, validated, in canonical form.
 */
import { ExecutaError } from "../../common/errors.js";
import { prepareLaunch, type LaunchSpec } from "../../host/index.js";
import {
  EXECUTA_JSON,
  manifestFromPlugin,
  MANIFEST_PATH,
  readExecutaJson,
  type JsonObject,
} from "../../project/index.js";
import { canonicalManifestJson, validateManifest, type Diagnostic, type Manifest } from "../../protocol/index.js";
import type { Output } from "../outputs.js";
import { describePlugin } from "./describe.js";

export interface LiveManifest {
  manifest: Manifest;
  /** manifest.json, canonical. */
  outputs: Output[];
  diagnostics: Diagnostic[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The describe answer as manifest.json holds it: a manifest without `name` gets `name` (the tool_id). */
export function withDefaultName(manifest: unknown, name: string | undefined): unknown {
  if (!isObject(manifest) || "name" in manifest || !name) return manifest;
  return { name, ...manifest };
}

/** Starts the plugin (a `go run` built once, a TypeScript entry bundled), asks describe and returns the answer. */
export async function describeLaunch(launch: LaunchSpec): Promise<Record<string, unknown>> {
  const prepared = await prepareLaunch(launch);
  let answer: unknown;
  try {
    const { command, args, cwd, env } = prepared.launch;
    ({ manifest: answer } = await describePlugin(command, args, {
      ...(cwd && { cwd }),
      ...(env && { env }),
      shown: [launch.command, ...launch.args].join(" "),
    }));
  } finally {
    prepared.cleanup();
  }
  if (!isObject(answer))
    throw new ExecutaError(
      `the plugin answered describe with ${JSON.stringify(answer)?.slice(0, 80)}, not a manifest object`,
      { hint: "describe must answer the manifest itself" },
    );
  return answer;
}

/**
 * manifest.json of a describe answer: named `name` when it has none, validated; with the project's
 * executa.json of a `"manifest_source": "plugin"` plugin, its version must be the answer's.
 */
export function manifestOfAnswer(
  answer: Record<string, unknown>,
  name: string | undefined,
  executaJson?: JsonObject,
): LiveManifest {
  const manifest = withDefaultName(answer, name) as Manifest;
  const diagnostics = validateManifest(manifest, { source: "describe" });
  if (
    manifestFromPlugin(executaJson) &&
    typeof executaJson?.version === "string" &&
    executaJson.version !== manifest.version
  ) {
    diagnostics.push({
      severity: "error",
      file: EXECUTA_JSON,
      path: "$.version",
      message: `executa.json version ${executaJson.version} differs from the version the plugin's describe answers (${String(manifest.version)})`,
      hint: `the plugin's code holds its version: set executa.json's version to ${JSON.stringify(manifest.version)}`,
    });
  }
  return { manifest, outputs: [{ path: MANIFEST_PATH, content: canonicalManifestJson(manifest) }], diagnostics };
}

/** The running plugin's manifest.json; a missing name is `options.name`, else executa.json's tool_id. */
export async function liveManifest(
  dir: string,
  launch: LaunchSpec,
  options: { name?: string } = {},
): Promise<LiveManifest> {
  const executaJson = readExecutaJson(dir);
  const toolId = options.name ?? (typeof executaJson?.tool_id === "string" ? executaJson.tool_id : undefined);
  return manifestOfAnswer(await describeLaunch(launch), toolId, executaJson);
}
