/**
 * What Anna's binary distribution needs beside each executable: an archive holding it and a
 * multi-file manifest.json, SHA256SUMS, build.json with a ready `binary_urls` block, and (with
 * --base-url) that block in executa.json's distribution.profiles.binary.
 */
import { createHash } from "node:crypto";
import { chmodSync, closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { updateExecutaJson } from "../project/index.js";
import type { Manifest, PlatformKey } from "../protocol/index.js";
import { PLATFORM_KEYS } from "../protocol/index.js";
import { tarGz, zip, type ArchiveEntry, type PieceStore } from "./archive/index.js";
import { exeSuffix } from "../protocol/index.js";
import { isWindows } from "./targets/index.js";
import { writeAtomic } from "./write-atomic.js";

export type ArchiveFormat = "tar.gz" | "zip";

export interface FileFacts {
  file: string;
  size: number;
  sha256: string;
}

export interface ArchiveFacts extends FileFacts {
  format: ArchiveFormat;
  /** The executable's path inside the archive. */
  entrypoint: string;
}

export function sha256Of(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** SHA-256 of a file, read a chunk at a time (artifacts are 100+ MiB). */
export function sha256File(path: string): string {
  const hash = createHash("sha256");
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(path, "r");
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** Size and SHA-256 of a file; `file` is how reports name it (default its base name). */
export function factsOf(path: string, file = basename(path)): FileFacts {
  return { file, size: statSync(path).size, sha256: sha256File(path) };
}

/** The executable's path inside an archive: `bin/<name>[.exe]`. */
export function entrypointIn(name: string, key: PlatformKey): string {
  return `bin/${name}${exeSuffix(key)}`;
}

/** Anna's multi-file manifest.json at the archive root: entrypoint per platform and permissions. */
export function annaManifest(manifest: Manifest, name: string, key: PlatformKey): Record<string, unknown> {
  const entrypoint: Record<string, string> = { default: `bin/${name}` };
  for (const k of PLATFORM_KEYS) if (isWindows(k)) entrypoint[k] = `bin/${name}.exe`;
  const plugin: Record<string, unknown> = { name };
  for (const field of ["display_name", "version", "description", "author"] as const) {
    if (manifest[field] !== undefined) plugin[field] = manifest[field];
  }
  plugin.runtime = { binary: { entrypoint, permissions: { [entrypointIn(name, key)]: "0o755" } } };
  return plugin;
}

/**
 * The archive entries of an artifact: one executable goes to `bin/<name>[.exe]`; a folder (the
 * one-folder layout, already shaped as `bin/...`) goes in as it is, sorted, symbolic links
 * followed, executable bits kept.
 */
export function artifactEntries(path: string, name: string, key: PlatformKey): ArchiveEntry[] {
  if (!statSync(path).isDirectory()) return [{ path: entrypointIn(name, key), data: readFileSync(path), mode: 0o755 }];
  const entries: ArchiveEntry[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else
        entries.push({
          path: relative(path, full).split(sep).join("/"),
          data: readFileSync(full),
          mode: stat.mode & 0o111 ? 0o755 : 0o644,
        });
    }
  };
  walk(path);
  return entries;
}

/**
 * Writes `<name>-<key>.tar.gz` (or `.zip` for Windows) of the artifact's entries and Anna's
 * manifest.json; `store` keeps and hands back compressed pieces.
 */
export function writeArchive(
  distDir: string,
  name: string,
  key: PlatformKey,
  artifact: readonly ArchiveEntry[],
  manifest: Manifest,
  store?: PieceStore,
): ArchiveFacts {
  const format: ArchiveFormat = isWindows(key) ? "zip" : "tar.gz";
  const entries: ArchiveEntry[] = [
    {
      path: "manifest.json",
      data: Buffer.from(JSON.stringify(annaManifest(manifest, name, key), null, 2) + "\n"),
      mode: 0o644,
    },
    ...artifact,
  ];
  const data = format === "zip" ? zip(entries, store) : tarGz(entries, store);
  const file = `${name}-${key}.${format}`;
  writeAtomic(join(distDir, file), data, 0o644);
  return { file, size: data.length, sha256: sha256Of(data), format, entrypoint: entrypointIn(name, key) };
}

/** `<archive>.sha256` beside the archive, in the form `sha256sum -c` reads (Anna's release flow ships one per archive). */
export function writeChecksumFile(distDir: string, archive: FileFacts): string {
  const file = `${archive.file}.sha256`;
  writeAtomic(join(distDir, file), `${archive.sha256}  ${archive.file}\n`, 0o644);
  return file;
}

/** `dist/SHA256SUMS`: `<sha256>  <file>` per line, sorted by file name (the `sha256sum -c` form). */
export function writeSums(distDir: string, files: readonly FileFacts[]): void {
  const lines = [...files].sort((a, b) => (a.file < b.file ? -1 : 1)).map((f) => `${f.sha256}  ${f.file}\n`);
  writeAtomic(join(distDir, "SHA256SUMS"), lines.join(""), 0o644);
}

/**
 * Fixed modes for what the build wrote, whatever the umask: 0755 for folders and executables
 * (a file with any execute bit), 0644 for the rest. `files` are relative to `distDir`.
 */
export function fixModes(distDir: string, files: readonly string[]): void {
  const folders = new Set<string>();
  for (const file of files) {
    const path = join(distDir, file);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    chmodSync(path, stat.isDirectory() || stat.mode & 0o111 ? 0o755 : 0o644);
    for (let dir = dirname(file); dir !== "." && dir !== "/" && !folders.has(dir); dir = dirname(dir)) folders.add(dir);
  }
  for (const dir of folders) chmodSync(join(distDir, dir), 0o755);
}

export interface BinaryUrl {
  url: string;
  sha256: string;
  size: number;
  entrypoint: string;
  format: ArchiveFormat;
}

/** The `binary_urls` block: each archive at `<baseUrl>/<file>`, or at its bare file name without one. */
export function binaryUrls(
  archives: ReadonlyMap<PlatformKey, ArchiveFacts>,
  baseUrl?: string,
): Record<string, BinaryUrl> {
  const out: Record<string, BinaryUrl> = {};
  for (const key of PLATFORM_KEYS) {
    const a = archives.get(key);
    if (!a) continue;
    const url = baseUrl ? `${baseUrl.replace(/\/+$/, "")}/${a.file}` : a.file;
    out[key] = { url, sha256: a.sha256, size: a.size, entrypoint: a.entrypoint, format: a.format };
  }
  return out;
}

/** Writes `binary_urls` into executa.json's distribution.profiles.binary, keeping everything else. */
export function writeBinaryUrls(projectDir: string, name: string, urls: Record<string, BinaryUrl>): void {
  updateExecutaJson(projectDir, (json) => {
    const distribution = (
      json.distribution && typeof json.distribution === "object" ? json.distribution : {}
    ) as Record<string, unknown>;
    const profiles = (
      distribution.profiles && typeof distribution.profiles === "object" ? distribution.profiles : {}
    ) as Record<string, unknown>;
    const binary = (profiles.binary && typeof profiles.binary === "object" ? profiles.binary : {}) as Record<
      string,
      unknown
    >;
    profiles.binary = {
      type: "binary",
      executable_name: name,
      supports_protocol: true,
      ...binary,
      binary_urls: { ...((binary.binary_urls as object | undefined) ?? {}), ...urls },
    };
    distribution.profiles = profiles;
    if (!distribution.active) distribution.active = "binary";
    return { ...json, distribution };
  });
}
