/** The npm packages a bundle really holds: the esbuild metafile's inputs that put bytes in the output. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PackageURL } from "packageurl-js";
import { integrityHash, type SbomComponent } from "./types.js";

type Json = Record<string, unknown>;

function readJson(path: string): Json | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** `node_modules/a/node_modules/@s/b/lib/x.js` -> `node_modules/a/node_modules/@s/b`. */
export function packageFolderOf(input: string): string | undefined {
  const parts = input.split(/[\\/]/);
  const last = parts.lastIndexOf("node_modules");
  if (last < 0 || last + 1 >= parts.length) return undefined;
  const width = parts[last + 1]!.startsWith("@") ? 2 : 1;
  if (last + width >= parts.length) return undefined;
  return parts.slice(0, last + 1 + width).join("/");
}

/** The license of a package.json: `license` (SPDX), or the legacy `license: {type}` / `licenses: [{type}]`. */
function licenseOf(pkg: Json): string | undefined {
  const license = pkg.license;
  if (typeof license === "string" && license) return license;
  if (license && typeof license === "object" && typeof (license as Json).type === "string") return (license as Json).type as string;
  if (Array.isArray(pkg.licenses)) {
    const types = pkg.licenses.map((l) => (l && typeof l === "object" ? (l as Json).type : undefined)).filter((t): t is string => typeof t === "string");
    if (types.length) return types.length === 1 ? types[0] : `(${types.join(" OR ")})`;
  }
  return undefined;
}

/**
 * One component per package folder among `inputs` (paths relative to the project, as esbuild
 * writes them), with its version and license from its package.json and the hash of its tarball
 * from package-lock.json (npm's own integrity) when the project has a lock file.
 */
export function npmComponents(projectDir: string, inputs: readonly string[]): SbomComponent[] {
  const lock = readJson(join(projectDir, "package-lock.json"));
  const locked = (lock?.packages && typeof lock.packages === "object" ? lock.packages : {}) as Record<string, Json>;
  const folders = [...new Set(inputs.map(packageFolderOf).filter((f): f is string => Boolean(f)))].sort();
  const out: SbomComponent[] = [];
  for (const folder of folders) {
    const pkg = readJson(join(projectDir, folder, "package.json"));
    const name = typeof pkg?.name === "string" ? pkg.name : undefined;
    const version = typeof pkg?.version === "string" ? pkg.version : undefined;
    if (!pkg || !name || !version) continue;
    const at = name.startsWith("@") ? name.indexOf("/") : -1;
    const purl = new PackageURL("npm", at > 0 ? name.slice(0, at) : undefined, at > 0 ? name.slice(at + 1) : name, version, undefined, undefined).toString();
    const license = licenseOf(pkg);
    const hashes = integrityHash(typeof locked[folder]?.integrity === "string" ? (locked[folder]!.integrity as string) : undefined);
    out.push({ type: "library", name, version, purl, ...(license && { license }), ...(hashes && { hashes }) });
  }
  return dedupe(out);
}

/** The same package at the same version bundled from two folders is one component. */
function dedupe(components: SbomComponent[]): SbomComponent[] {
  const seen = new Map<string, SbomComponent>();
  for (const c of components) if (!seen.has(c.purl)) seen.set(c.purl, c);
  return [...seen.values()];
}
