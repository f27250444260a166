/** The Go modules inside a Go binary, from its build info (`go version -m`), which `-s -w` keeps. */
import { PackageURL } from "packageurl-js";
import { ExecutaError } from "../../common/errors.js";
import { exec, tail } from "../../common/exec.js";
import type { SbomComponent } from "./types.js";

/** `h1:<base64 SHA-256>` (the go.sum hash) as a CycloneDX SHA-256. */
function h1Hash(sum: string | undefined): SbomComponent["hashes"] {
  const match = /^h1:([A-Za-z0-9+/=]+)$/.exec(sum ?? "");
  return match ? [{ alg: "SHA-256", content: Buffer.from(match[1]!, "base64").toString("hex") }] : undefined;
}

function goPurl(path: string, version: string): string {
  const slash = path.lastIndexOf("/");
  return new PackageURL("golang", slash > 0 ? path.slice(0, slash) : undefined, slash > 0 ? path.slice(slash + 1) : path, version, undefined, undefined).toString();
}

export interface GoBuildInfo {
  goVersion: string;
  /** The main module's path. */
  main?: string;
  modules: SbomComponent[];
}

/** Parses `go version -m` output: the dependency modules (a `=>` replacement wins). */
export function parseGoBuildInfo(text: string): GoBuildInfo {
  const goVersion = /^[^\n]*:\s+go(\S+)/.exec(text)?.[1] ?? "";
  let main: string | undefined;
  const modules: SbomComponent[] = [];
  for (const line of text.split("\n")) {
    const [kind, path, version, sum] = line.trim().split("\t");
    if (kind === "path" && path) main = path;
    if (kind === "dep" && path && version) {
      const hashes = h1Hash(sum);
      modules.push({ type: "library", name: path, version, purl: goPurl(path, version), ...(hashes && { hashes }) });
    }
    if (kind === "=>" && path && modules.length) {
      const replaced = modules[modules.length - 1]!;
      if (/^(\.|\/|[A-Za-z]:)/.test(path)) {
        // Replaced by a local folder: the module keeps its name and version, and has no go.sum hash.
        modules[modules.length - 1] = { type: "library", name: replaced.name, version: replaced.version, purl: replaced.purl, description: `replaced by the local folder ${path}` };
      } else if (version) {
        const hashes = h1Hash(sum);
        modules[modules.length - 1] = { type: "library", name: path, version, purl: goPurl(path, version), ...(hashes && { hashes }) };
      }
    }
  }
  return { goVersion, ...(main && { main }), modules };
}

export async function goBuildInfo(binary: string): Promise<GoBuildInfo> {
  const result = await exec("go", ["version", "-m", binary]);
  if (result.code !== 0) throw new ExecutaError(`go version -m could not read the build info of ${binary}: ${tail(result.stderr, 2)}`);
  return parseGoBuildInfo(result.stdout);
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
