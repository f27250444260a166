/**
 * CycloneDX 1.6 JSON through @cyclonedx/cyclonedx-library. Deterministic: lists sorted, no time
 * stamp, and a serial number derived from the content, so the same build gives the same bytes.
 */
import { createHash } from "node:crypto";
import { Contrib, Enums, Models, Serialize, Spec } from "@cyclonedx/cyclonedx-library";
import parseSpdxExpression from "spdx-expression-parse";
import type { SbomComponent } from "./types.js";

export const SBOM_SPEC = Spec.Spec1dot6;

export interface BomSubject {
  /** The plugin: tool id, version and license. */
  name: string;
  version: string;
  license?: string;
  description?: string;
  /** Artifacts this bill of materials describes (file name and SHA-256), with their platform. */
  artifacts: Array<{ file: string; sha256: string; platform: string }>;
  /** The toolchain that made it. */
  tool: { name: string; version: string };
}

const licenses = new Contrib.License.Factories.LicenseFactory((text) => void parseSpdxExpression(text));

function license(text: string): Models.License {
  try {
    return licenses.makeFromString(text);
  } catch {
    return new Models.NamedLicense(text);
  }
}

function toComponent(c: SbomComponent): Models.Component {
  const component = new Models.Component(
    c.type === "platform" ? Enums.ComponentType.Platform : Enums.ComponentType.Library,
    c.name,
    {
      bomRef: c.purl,
      ...(c.version && { version: c.version }),
      purl: c.purl,
      ...(c.description && { description: c.description }),
    },
  );
  if (c.license) component.licenses.add(license(c.license));
  for (const h of c.hashes ?? []) component.hashes.set(h.alg as Enums.HashAlgorithm, h.content);
  for (const p of c.properties ?? []) component.properties.add(new Models.Property(p.name, p.value));
  return component;
}

/** One entry per purl (the same package in two targets), with the union of what each uses. */
function merged(components: readonly SbomComponent[]): SbomComponent[] {
  const byPurl = new Map<string, SbomComponent>();
  for (const c of components) {
    const seen = byPurl.get(c.purl);
    if (!seen) byPurl.set(c.purl, { ...c, dependsOn: [...(c.dependsOn ?? [])] });
    else {
      seen.dependsOn = [...new Set([...seen.dependsOn!, ...(c.dependsOn ?? [])])];
      seen.direct = seen.direct || c.direct;
    }
  }
  return [...byPurl.values()];
}

/** The bill of materials of `components` in the artifacts of `subject`, as CycloneDX JSON text. */
export function cyclonedxJson(subject: BomSubject, components: readonly SbomComponent[]): string {
  const main = new Models.Component(Enums.ComponentType.Application, subject.name, {
    bomRef: `${subject.name}@${subject.version}`,
    version: subject.version,
    ...(subject.description && { description: subject.description }),
  });
  if (subject.license) main.licenses.add(license(subject.license));
  for (const a of subject.artifacts)
    main.properties.add(new Models.Property("executa:artifact", `${a.platform} ${a.file} sha256:${a.sha256}`));
  if (subject.artifacts.length === 1) main.hashes.set(Enums.HashAlgorithm["SHA-256"], subject.artifacts[0]!.sha256);
  const bom = new Models.Bom();
  bom.metadata.component = main;
  bom.metadata.tools.components.add(
    new Models.Component(Enums.ComponentType.Application, subject.tool.name, { version: subject.tool.version }),
  );
  const list = merged(components);
  const made = new Map(list.map((c) => [c.purl, toComponent(c)]));
  const used = new Set(list.flatMap((c) => c.dependsOn ?? []).filter((purl) => made.has(purl)));
  for (const c of list) {
    const component = made.get(c.purl)!;
    bom.components.add(component);
    for (const purl of c.dependsOn ?? [])
      if (made.has(purl) && purl !== c.purl) component.dependencies.add(made.get(purl)!.bomRef);
    if (c.direct || !used.has(c.purl)) main.dependencies.add(component.bomRef);
  }
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(SBOM_SPEC));
  const unnumbered = serializer.serialize(bom, { sortLists: true, space: 2 });
  bom.serialNumber = `urn:uuid:${uuidOf(unnumbered)}`;
  return serializer.serialize(bom, { sortLists: true, space: 2 }) + "\n";
}

/** A name-based UUID (version 5 layout, SHA-256 based) of the text: the same content, the same serial. */
function uuidOf(text: string): string {
  const h = createHash("sha256").update(text).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
