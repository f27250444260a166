/** Project -> extraction for its language -> manifest + bindings file, validated. */
import { detectLaunch } from "../host/index.js";
import {
  bindingsPath,
  loadProject,
  manifestFromPlugin,
  MANIFEST_PATH,
  readExecutaJson,
  type SourceProject,
} from "../project/index.js";
import {
  canonicalManifestJson,
  hasErrors,
  validateManifest,
  type Diagnostic,
  type Manifest,
} from "../protocol/index.js";
import { extractGo, renderGoBindings } from "./go/index.js";
import { hostUsageDiagnostics } from "./host-usage.js";
import { attachLocations } from "./locate.js";
import type { Extraction } from "./model.js";
import { liveManifest } from "./live/index.js";
import type { Output } from "./outputs.js";
import { placeholderDiagnostics } from "./placeholders.js";
import { pluginLevelManifest } from "./plugin-fields.js";
import { extractPython, renderPythonBindings } from "./python/index.js";
import { renderTsBindings } from "./ts/bindings.js";
import { extractTypeScript } from "./ts/extract.js";

export interface GenerateOptions {
  /** Warnings count as errors. */
  strict?: boolean;
  /** Programs to use instead of the ones on PATH (tests use them to simulate a missing toolchain). */
  toolchain?: { python?: string; go?: string };
}

export interface Generated {
  manifest: Manifest;
  diagnostics: Diagnostic[];
  /** manifest.json and the bindings file; paths are project-relative with `/` separators. */
  outputs: Output[];
  /** How the tools were read. */
  via: string;
  /** The project read (absent for a plugin whose manifest comes from its running describe). */
  project?: SourceProject;
}

async function extract(project: SourceProject, options: GenerateOptions): Promise<Extraction> {
  switch (project.language) {
    case "ts":
      return extractTypeScript(project.dir);
    case "python":
      return extractPython(project, options.toolchain?.python);
    case "go":
      return extractGo(project, options.toolchain?.go);
  }
}

function bindingsOutput(project: SourceProject, extraction: Extraction): Output | undefined {
  switch (project.language) {
    case "ts":
      return { path: bindingsPath("ts"), content: renderTsBindings(extraction.bindings) };
    case "python": {
      if (extraction.packageDir === undefined) return undefined;
      return {
        path: bindingsPath("python", extraction.packageDir),
        content: renderPythonBindings(extraction.bindings, extraction.packageDir),
      };
    }
    case "go": {
      const content = renderGoBindings(extraction);
      return content === undefined ? undefined : { path: bindingsPath("go"), content };
    }
  }
}

export function applyStrict(diagnostics: Diagnostic[], strict: boolean | undefined): Diagnostic[] {
  return strict
    ? diagnostics.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d))
    : diagnostics;
}

/** Generates the manifest and the bindings of the project in `projectDir` (nothing is written). */
export async function generateManifest(projectDir: string, options: GenerateOptions = {}): Promise<Generated> {
  if (manifestFromPlugin(readExecutaJson(projectDir))) return fromRunningPlugin(projectDir, options);
  const project = loadProject(projectDir);
  const extraction = await extract(project, options);
  const { manifest, diagnostics: pluginDiagnostics } = pluginLevelManifest(project, extraction.tools);
  const sourceErrors = hasErrors(extraction.diagnostics);
  const checks = [...validateManifest(manifest, { source: "generated" }), ...placeholderDiagnostics(manifest)];
  const validation = attachLocations(checks, extraction.locations).filter(
    // The plugin-level checks already reported these with executa.json as the place to fix them;
    // and a manifest without tools follows from a source error already reported where it is.
    (d) =>
      !pluginDiagnostics.some((p) => p.path === d.path && p.severity === "error") &&
      !(sourceErrors && d.path === "$.tools" && extraction.tools.length === 0),
  );
  const usage = hostUsageDiagnostics(manifest, extraction.hostCalls, project.executaJsonText, !sourceErrors);
  const diagnostics = applyStrict(
    [...extraction.diagnostics, ...pluginDiagnostics, ...validation, ...usage],
    options.strict,
  );
  const outputs: Output[] = [{ path: MANIFEST_PATH, content: canonicalManifestJson(manifest) }];
  const bindings = bindingsOutput(project, extraction);
  if (bindings) outputs.push(bindings);
  return { manifest, diagnostics, outputs, via: extraction.via, project };
}

/** `"manifest_source": "plugin"`: the plugin's own describe answer is manifest.json (there are no bindings). */
async function fromRunningPlugin(projectDir: string, options: GenerateOptions): Promise<Generated> {
  const launch = await detectLaunch(projectDir);
  const live = await liveManifest(projectDir, launch);
  return {
    manifest: live.manifest,
    diagnostics: applyStrict(live.diagnostics, options.strict),
    outputs: live.outputs,
    via: `the running plugin's describe (${launch.source})`,
  };
}

export { hasErrors };
