/**
 * The software bill of materials of a build: `sbom.cdx.json` for the whole release and, when the
 * targets carry different components (a Node runtime per platform), `<name>-<platform>.cdx.json`
 * beside each archive.
 */
import { join } from "node:path";
import type { PlatformKey } from "../../protocol/index.js";
import { writeAtomic } from "../write-atomic.js";
import { cyclonedxJson, type BomSubject } from "./cyclonedx.js";
import type { SbomComponent } from "./types.js";

export { npmComponents, packageFolderOf } from "./npm.js";
export { goBuildInfo, goStdlib, parseGoBuildInfo } from "./go.js";
export { cpython, pythonPackages } from "./python.js";
export { jsRuntime } from "./runtime.js";
export type { SbomComponent } from "./types.js";

export const SBOM_FILE = "sbom.cdx.json";

export interface TargetContents {
  platform: PlatformKey;
  /** The archive users download, and its SHA-256. */
  archive: { file: string; sha256: string };
  components: SbomComponent[];
}

const key = (components: readonly SbomComponent[]) =>
  components
    .map((c) => c.purl)
    .sort()
    .join("\n");

/** Writes the SBOM files into `dist`; returns their names. */
export function writeSboms(
  dist: string,
  subject: Omit<BomSubject, "artifacts">,
  targets: readonly TargetContents[],
): string[] {
  const artifacts = (list: readonly TargetContents[]) =>
    list.map((t) => ({ file: t.archive.file, sha256: t.archive.sha256, platform: t.platform }));
  const all = targets.flatMap((t) => t.components);
  const written = [SBOM_FILE];
  writeAtomic(join(dist, SBOM_FILE), cyclonedxJson({ ...subject, artifacts: artifacts(targets) }, all), 0o644);
  if (new Set(targets.map((t) => key(t.components))).size > 1) {
    for (const t of targets) {
      const file = `${subject.name}-${t.platform}.cdx.json`;
      writeAtomic(join(dist, file), cyclonedxJson({ ...subject, artifacts: artifacts([t]) }, t.components), 0o644);
      written.push(file);
    }
  }
  return written;
}
