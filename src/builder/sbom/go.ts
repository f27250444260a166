/** The Go modules inside a Go binary, from its build info (`go version -m`), which `-s -w` keeps. */
import { PackageURL } from "packageurl-js";
import { ExecutaError } from "../../common/errors.js";
import { exec, tail } from "../../common/exec.js";
import type { SbomComponent } from "./types.js";

/**
 * go.sum's `h1:` hash is Go's dirhash: a SHA-256 over the list of the module's files and their
 * SHA-256s, not a hash of any one file, so it is a property, not a CycloneDX hash.
 */
export const GO_MODULE_HASH = "executa:go:module-hash";

function moduleHash(sum: string | undefined): SbomComponent["properties"] {
  return sum && /^h1:[A-Za-z0-9+/=]+$/.test(sum) ? [{ name: GO_MODULE_HASH, value: sum }] : undefined;
}

function goPurl(path: string, version: string): string {
  const slash = path.lastIndexOf("/");
  return new PackageURL(
    "golang",
    slash > 0 ? path.slice(0, slash) : undefined,
    slash > 0 ? path.slice(slash + 1) : path,
    version,
    undefined,
    undefined,
  ).toString();
}

export interface GoBuildInfo {
  goVersion: string;
  /** The main module's path. */
  main?: string;
  modules: SbomComponent[];
  /** The module path and version the build selected (before a `=>` replacement) -> its component's purl. */
  required: Map<string, { version: string; purl: string }>;
}

function goModule(path: string, version: string, sum: string | undefined): SbomComponent {
  const properties = moduleHash(sum);
  return { type: "library", name: path, version, purl: goPurl(path, version), ...(properties && { properties }) };
}

/** Parses `go version -m` output: the dependency modules (a `=>` replacement wins). */
export function parseGoBuildInfo(text: string): GoBuildInfo {
  const goVersion = /^[^\n]*:\s+go(\S+)/.exec(text)?.[1] ?? "";
  let main: string | undefined;
  let requested: { path: string; version: string } | undefined;
  const modules: SbomComponent[] = [];
  const required: GoBuildInfo["required"] = new Map();
  for (const line of text.split("\n")) {
    const [kind, path, version, sum] = line.trim().split("\t");
    if (kind === "path" && path) main = path;
    if (kind === "dep" && path && version) {
      modules.push(goModule(path, version, sum));
      requested = { path, version };
    }
    if (kind === "=>" && path && modules.length) {
      const replaced = modules[modules.length - 1]!;
      if (/^(\.|\/|[A-Za-z]:)/.test(path)) {
        // Replaced by a local folder: the module keeps its name and version, and has no go.sum hash.
        modules[modules.length - 1] = {
          type: "library",
          name: replaced.name,
          version: replaced.version!,
          purl: replaced.purl,
          description: `replaced by the local folder ${path}`,
        };
      } else if (version) {
        modules[modules.length - 1] = goModule(path, version, sum);
      }
    }
    if ((kind === "dep" || kind === "=>") && requested)
      required.set(requested.path, { version: requested.version, purl: modules[modules.length - 1]!.purl });
  }
  return { goVersion, ...(main && { main }), modules, required };
}

/**
 * The requirement edges among the binary's modules, from `go mod graph` (lines `from to`, each
 * `path@version`, the main module without a version): a module's edges count only from the
 * version the build selected, and the main module's edges mark the direct dependencies.
 */
export function applyGoModGraph(info: GoBuildInfo, graph: string): void {
  const byPurl = new Map(info.modules.map((m) => [m.purl, m]));
  for (const line of graph.split("\n")) {
    const [from, to] = line.trim().split(/\s+/);
    if (!from || !to) continue;
    const [fromPath, fromVersion] = from.split("@");
    const target = byPurl.get(info.required.get(to.split("@")[0]!)?.purl ?? "");
    if (!target) continue;
    if (fromVersion === undefined) {
      if (fromPath === info.main) target.direct = true;
      continue;
    }
    const selected = info.required.get(fromPath!);
    const source = selected?.version === fromVersion ? byPurl.get(selected.purl) : undefined;
    if (source && source !== target) source.dependsOn = [...new Set([...(source.dependsOn ?? []), target.purl])];
  }
}

export async function goBuildInfo(binary: string, projectDir?: string): Promise<GoBuildInfo> {
  const result = await exec("go", ["version", "-m", binary]);
  if (result.code !== 0)
    throw new ExecutaError(`go version -m could not read the build info of ${binary}: ${tail(result.stderr, 2)}`);
  const info = parseGoBuildInfo(result.stdout);
  if (projectDir) {
    const graph = await exec("go", ["mod", "graph"], { cwd: projectDir, timeoutMs: 120_000 });
    if (graph.code === 0) applyGoModGraph(info, graph.stdout);
  }
  return info;
}

/** The Go toolchain's standard library and runtime, compiled into every Go binary. */
export function goStdlib(goVersion: string): SbomComponent {
  return {
    type: "platform",
    name: "stdlib",
    version: goVersion,
    purl: goPurl("stdlib", goVersion),
    license: "BSD-3-Clause",
    description: `The Go ${goVersion} runtime and standard library, compiled into the binary`,
  };
}
