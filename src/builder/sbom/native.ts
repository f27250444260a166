/**
 * The native libraries a frozen Python carries (OpenSSL, zlib, libffi...): which system package
 * they came from (dpkg, where it knows the file) and their version, from the library's own version
 * string when it has one, else from that package.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename } from "node:path";
import { PackageURL } from "packageurl-js";
import { exec, which } from "../../common/exec.js";
import type { SbomComponent } from "./types.js";

export interface BundledLibrary {
  /** Its name inside the artifact (`libssl.so.3`). */
  name: string;
  /** The file it was copied from. */
  source: string;
}

/** The project a library file belongs to, and the version string its bytes carry. */
const KNOWN: Array<{ file: RegExp; project: string; version?: RegExp }> = [
  {
    file: /^lib(ssl|crypto)\b/i,
    project: "openssl",
    version: /OpenSSL (\d+\.\d+\.\d+[a-z]?) +\d{1,2} [A-Z][a-z]{2} \d{4}/,
  },
  { file: /^(libz|zlib)\b/i, project: "zlib", version: /(?:deflate|inflate) (\d+\.\d+(?:\.\d+)*) Copyright/ },
  { file: /^libbz2\b/i, project: "bzip2", version: /\b(\d+\.\d+\.\d+), \d{1,2}-[A-Z][a-z]{2}-\d{4}/ },
  { file: /^liblzma\b/i, project: "xz" },
  { file: /^libffi\b/i, project: "libffi" },
  { file: /^libsqlite3\b/i, project: "sqlite" },
  { file: /^libmpdec\b/i, project: "mpdecimal" },
  { file: /^libexpat\b/i, project: "expat" },
];

/** `libssl.so.3` -> `libssl`, `libcrypto-3-x64.dll` -> `libcrypto-3-x64`. */
const stemOf = (file: string) => basename(file).replace(/(\.so(\.\d+)*|\.\d+\.dylib|\.dylib|\.dll)$/i, "");

/** The version string inside the library's bytes, for the libraries that carry one. */
export function versionString(file: string, bytes: Buffer): string | undefined {
  const pattern = KNOWN.find((k) => k.file.test(basename(file)))?.version;
  return pattern?.exec(bytes.toString("latin1"))?.[1];
}

/** `1:1.2.13.dfsg-1` -> `1.2.13`: the upstream part of a Debian version. */
export function upstreamVersion(debian: string): string {
  return debian
    .replace(/^\d+:/, "")
    .replace(/-[^-]*$/, "")
    .replace(/[.+~](dfsg|ds|really).*$/i, "");
}

interface DebPackage {
  package: string;
  version: string;
  source: string;
  arch: string;
}

async function dpkgOwner(path: string): Promise<DebPackage | undefined> {
  const candidates = [...new Set([path, realpathSync(path)])];
  for (const candidate of candidates) {
    const owner = await exec("dpkg-query", ["-S", candidate]);
    const pkg = owner.code === 0 ? /^([^:\s,]+(?::[^:\s,]+)?): /.exec(owner.stdout)?.[1] : undefined;
    if (!pkg) continue;
    const shown = await exec("dpkg-query", [
      "-W",
      "-f",
      "${Package}\t${Version}\t${source:Package}\t${Architecture}",
      pkg,
    ]);
    const [name, version, source, arch] = shown.stdout.trim().split("\t");
    if (shown.code === 0 && name && version)
      return { package: name, version, source: source || name, arch: arch ?? "" };
  }
  return undefined;
}

/** Debian's `ID` and `VERSION_ID`, for the purl's namespace and distro. */
function osRelease(): { id: string; version: string } {
  const text = existsSync("/etc/os-release") ? readFileSync("/etc/os-release", "utf8") : "";
  const field = (key: string) => new RegExp(`^${key}="?([^"\\n]*)"?$`, "m").exec(text)?.[1] ?? "";
  return { id: field("ID") || "debian", version: field("VERSION_ID") };
}

/** One component per system package (or per file, where no package manager knows it). */
export async function nativeLibraries(libraries: readonly BundledLibrary[]): Promise<SbomComponent[]> {
  const dpkg = process.platform === "linux" && which("dpkg-query") ? dpkgOwner : async () => undefined;
  const groups = new Map<string, { owner?: DebPackage; files: string[]; versions: string[] }>();
  for (const lib of libraries) {
    if (!existsSync(lib.source)) continue;
    const owner = await dpkg(lib.source);
    const key = owner ? `deb:${owner.package}` : `file:${lib.name}`;
    const group = groups.get(key) ?? { ...(owner && { owner }), files: [], versions: [] };
    group.files.push(lib.name);
    const version = versionString(lib.name, readFileSync(lib.source));
    if (version) group.versions.push(version);
    groups.set(key, group);
  }
  const os = osRelease();
  return [...groups.values()].map(({ owner, files, versions }) => {
    const known = KNOWN.find((k) => files.some((f) => k.file.test(basename(f))));
    const name = owner?.source ?? known?.project ?? stemOf(files[0]!);
    const version = versions[0] ?? (owner && upstreamVersion(owner.version));
    const purl = owner
      ? new PackageURL(
          "deb",
          os.id,
          owner.package,
          owner.version,
          { arch: owner.arch, ...(os.version && { distro: `${os.id}-${os.version}` }) },
          undefined,
        ).toString()
      : new PackageURL("generic", undefined, name, version, undefined, undefined).toString();
    const from = owner ? `the ${os.id} package ${owner.package} ${owner.version}` : "the build machine";
    return {
      type: "library" as const,
      name,
      ...(version && { version }),
      purl,
      properties: files.map((file) => ({ name: "executa:file", value: file })),
      description: `${files.join(", ")}, bundled by PyInstaller from ${from}`,
    };
  });
}
