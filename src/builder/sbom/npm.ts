/** The npm packages a bundle really holds: the esbuild metafile's inputs that put bytes in the output. */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
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
  if (license && typeof license === "object" && typeof (license as Json).type === "string")
    return (license as Json).type as string;
  if (Array.isArray(pkg.licenses)) {
    const types = pkg.licenses
      .map((l) => (l && typeof l === "object" ? (l as Json).type : undefined))
      .filter((t): t is string => typeof t === "string");
    if (types.length) return types.length === 1 ? types[0] : `(${types.join(" OR ")})`;
  }
  return undefined;
}

/** The folder a package's `require(name)` finds, among `bundled` folders, walking up node_modules as Node does. */
export function resolveFolder(from: string, name: string, bundled: ReadonlySet<string>): string | undefined {
  let dir = from;
  for (let ups = 0; ups < 8; ) {
    const candidate = posix.join(dir, "node_modules", name);
    if (bundled.has(candidate)) return candidate;
    const cut = dir.lastIndexOf("node_modules/");
    if (cut >= 0) dir = dir.slice(0, Math.max(0, cut - 1));
    else {
      dir = posix.join(dir || ".", "..");
      ups++;
    }
  }
  return undefined;
}

/** Every dependency name a package.json declares (optional and peer ones too: bundled, they are used). */
function dependencyNames(pkg: Json | undefined, withDev = false): string[] {
  const fields = ["dependencies", "optionalDependencies", "peerDependencies", ...(withDev ? ["devDependencies"] : [])];
  return [
    ...new Set(fields.flatMap((f) => (pkg?.[f] && typeof pkg[f] === "object" ? Object.keys(pkg[f] as Json) : []))),
  ];
}

/**
 * One component per package folder among `inputs` (paths relative to the project, as esbuild
 * writes them), with its version and license from its package.json, the hash of its tarball
 * from package-lock.json (npm's own integrity) when the project has a lock file, and the bundled
 * packages it requires; the ones the project's package.json declares are direct.
 */
export function npmComponents(projectDir: string, inputs: readonly string[]): SbomComponent[] {
  const lock = readJson(join(projectDir, "package-lock.json"));
  const locked = (lock?.packages && typeof lock.packages === "object" ? lock.packages : {}) as Record<string, Json>;
  const folders = [...new Set(inputs.map(packageFolderOf).filter((f): f is string => Boolean(f)))].sort();
  const manifests = new Map(folders.map((folder) => [folder, readJson(join(projectDir, folder, "package.json"))]));
  const bundled = new Set(folders);
  const purls = new Map<string, string>();
  for (const [folder, pkg] of manifests) {
    const name = typeof pkg?.name === "string" ? pkg.name : undefined;
    const version = typeof pkg?.version === "string" ? pkg.version : undefined;
    if (!name || !version) continue;
    const at = name.startsWith("@") ? name.indexOf("/") : -1;
    purls.set(
      folder,
      new PackageURL(
        "npm",
        at > 0 ? name.slice(0, at) : undefined,
        at > 0 ? name.slice(at + 1) : name,
        version,
        undefined,
        undefined,
      ).toString(),
    );
  }
  const uses = (from: string, names: string[]) => [
    ...new Set(
      names.map((n) => purls.get(resolveFolder(from, n, bundled) ?? "")).filter((p): p is string => Boolean(p)),
    ),
  ];
  const direct = new Set(uses("", dependencyNames(readJson(join(projectDir, "package.json")), true)));
  const out: SbomComponent[] = [];
  for (const [folder, pkg] of manifests) {
    const purl = purls.get(folder);
    if (!pkg || !purl) continue;
    const license = licenseOf(pkg);
    const hashes = integrityHash(
      typeof locked[folder]?.integrity === "string" ? (locked[folder]!.integrity as string) : undefined,
    );
    const dependsOn = uses(folder, dependencyNames(pkg)).filter((p) => p !== purl);
    out.push({
      type: "library",
      name: pkg.name as string,
      version: pkg.version as string,
      purl,
      ...(license && { license }),
      ...(hashes && { hashes }),
      ...(dependsOn.length && { dependsOn }),
      ...(direct.has(purl) && { direct: true }),
    });
  }
  return dedupe(out);
}

/** The same package at the same version bundled from two folders is one component. */
function dedupe(components: SbomComponent[]): SbomComponent[] {
  const seen = new Map<string, SbomComponent>();
  for (const c of components) if (!seen.has(c.purl)) seen.set(c.purl, c);
  return [...seen.values()];
}
