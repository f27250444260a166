/**
 * Runtimes from the npm registry: fetched with `npm pack` (npm checks the registry's integrity),
 * re-verified here, cached per package and version, and used offline once cached.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec, tail } from "../common/exec.js";
import { untar } from "./archive/index.js";
import { cacheDir } from "./cache.js";
import { sha256File } from "./outputs.js";
import { writeAtomic } from "./write-atomic.js";

export interface PackageFile {
  pkg: string;
  version: string;
  /** The file wanted, relative to the package root (`bin/node`). */
  file: string;
}

interface CacheRecord {
  pkg: string;
  version: string;
  integrity: string;
  files: Record<string, { sha256: string; mode: number }>;
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function packageDir(root: string, pkg: string, version: string): string {
  return join(root, "npm", pkg.replace(/^@/, "").replace(/\//g, "__"), version);
}

export interface FetchedFile {
  path: string;
  /** The file's SHA-256, checked against the cache's record when it was found there. */
  sha256: string;
  /** The npm registry's integrity of the package tarball the file came from (`sha512-…`). */
  integrity: string;
}

/** The cached file (and its package's integrity) when the cache holds it intact, else undefined. */
function cached(root: string, want: PackageFile): FetchedFile | undefined {
  const dir = packageDir(root, want.pkg, want.version);
  const recordPath = join(dir, "record.json");
  const path = join(dir, "files", want.file);
  if (!existsSync(recordPath) || !existsSync(path)) return undefined;
  const record = JSON.parse(readFileSync(recordPath, "utf8")) as CacheRecord;
  const expected = record.files[want.file];
  if (!expected) return undefined;
  if (sha256File(path) !== expected.sha256) {
    rmSync(path, { force: true });
    return undefined;
  }
  return { path, sha256: expected.sha256, integrity: record.integrity };
}

function verifyIntegrity(tarball: Buffer, integrity: string, spec: string): void {
  const [algorithm, expected] = integrity.split("-", 2) as [string, string];
  if (!["sha512", "sha384", "sha256", "sha1"].includes(algorithm) || !expected) {
    throw new ExecutaError(`npm reported no usable integrity for ${spec} (${integrity})`);
  }
  const actual = createHash(algorithm).update(tarball).digest("base64");
  if (actual !== expected) {
    throw new ExecutaError(`integrity check failed for ${spec}: the tarball's ${algorithm} is not the registry's`, {
      hint: "run `npm cache verify`, then build again",
    });
  }
}

function npmCommand(): { command: string; prefix: string[] } {
  // On Windows npm is a .cmd script, which Node starts only through cmd.exe.
  return process.platform === "win32"
    ? { command: "cmd.exe", prefix: ["/d", "/s", "/c", "npm"] }
    : { command: "npm", prefix: [] };
}

interface PackResult {
  name: string;
  version: string;
  integrity: string;
  filename: string;
}

async function npmPack(specs: string[], into: string, env: NodeJS.ProcessEnv): Promise<PackResult[]> {
  const { command, prefix } = npmCommand();
  const result = await exec(command, [...prefix, "pack", ...specs, "--json", "--pack-destination", into], {
    cwd: into,
    env: {
      ...env,
      npm_config_loglevel: "error",
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
    },
  });
  if (result.spawnError) {
    throw new ExecutaError(`could not run npm to fetch ${specs.join(", ")}: ${result.spawnError.message}`, {
      hint: "install Node.js with npm, or put npm on PATH",
    });
  }
  if (result.code !== 0) {
    throw new ExecutaError(
      `could not fetch ${specs.join(", ")} from the npm registry: ${tail(result.stderr || result.stdout, 3).replace(/\n/g, " / ")}`,
      {
        hint: `connect to the npm registry once so the runtimes are cached in ${cacheDir(env)} (builds are offline after that), or point EXECUTA_CACHE_DIR at a filled cache`,
      },
    );
  }
  return JSON.parse(result.stdout) as PackResult[];
}

/**
 * The local paths of the wanted package files, fetching the packages the cache lacks with one
 * `npm pack`. Files are returned in the order asked.
 */
export async function fetchPackageFiles(
  wanted: readonly PackageFile[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<FetchedFile[]> {
  const root = cacheDir(env);
  // Each file is hashed once: those found intact now, the rest after they are fetched.
  const found = wanted.map((w) => cached(root, w));
  const missing = wanted.filter((_, i) => !found[i]);
  const specs = [...new Set(missing.map((w) => `${w.pkg}@${w.version}`))];
  if (specs.length > 0) {
    const work = join(root, "tmp", `pack-${process.pid}-${randomBytes(4).toString("hex")}`);
    mkdirSync(work, { recursive: true });
    try {
      const packed = await npmPack(specs, work, env);
      for (const spec of specs) {
        const at = spec.lastIndexOf("@");
        const pkg = spec.slice(0, at);
        const version = spec.slice(at + 1);
        const info = packed.find((p) => p.name === pkg && p.version === version);
        if (!info) throw new ExecutaError(`npm pack did not return ${spec}`);
        const tarball = readFileSync(join(work, info.filename));
        verifyIntegrity(tarball, info.integrity, spec);
        const files = wanted.filter((w) => w.pkg === pkg && w.version === version).map((w) => w.file);
        const entries = untar(tarball);
        const dir = packageDir(root, pkg, version);
        const recordPath = join(dir, "record.json");
        const previous = existsSync(recordPath)
          ? (JSON.parse(readFileSync(recordPath, "utf8")) as CacheRecord)
          : undefined;
        const record: CacheRecord = {
          pkg,
          version,
          integrity: info.integrity,
          files: previous?.integrity === info.integrity ? previous.files : {},
        };
        for (const file of new Set(files)) {
          const entry = entries.find((e) => e.path === `package/${file}`);
          if (!entry) throw new ExecutaError(`${spec} has no ${file}`);
          const mode = entry.mode & 0o111 ? 0o755 : 0o644;
          writeAtomic(join(dir, "files", file), entry.data, mode);
          record.files[file] = { sha256: sha256(entry.data), mode };
        }
        writeAtomic(recordPath, JSON.stringify(record, null, 2) + "\n");
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return wanted.map((w, i) => {
    const file = found[i] ?? cached(root, w);
    if (!file) throw new ExecutaError(`the cache at ${root} lost ${w.pkg}@${w.version} ${w.file} while building`);
    return file;
  });
}
