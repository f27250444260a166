/** One piece of an artifact's bill of materials, before it becomes CycloneDX. */
export interface SbomComponent {
  /** `library` for a bundled package, module or native library, `platform` for the runtime the artifact carries. */
  type: "library" | "platform";
  name: string;
  /** Absent only for a native library whose version nothing on this machine knows. */
  version?: string;
  /** Package URL; also the component's bom-ref. */
  purl: string;
  /** SPDX id or expression, or a license name as the package states it. */
  license?: string;
  /** Lower-case hex digests of the component's own files. */
  hashes?: Array<{ alg: "SHA-256" | "SHA-384" | "SHA-512" | "SHA-1"; content: string }>;
  /** Facts that are not CycloneDX fields (`executa:go:module-hash`, `executa:file`), in order. */
  properties?: Array<{ name: string; value: string }>;
  /** Purls of the other components of the same artifact this one uses. */
  dependsOn?: string[];
  /** The plugin's own code uses it (declared by the project); the plugin also depends on every component nothing else uses. */
  direct?: boolean;
  description?: string;
}

/** A hash in the Subresource Integrity form npm uses (`sha512-<base64>`) as a CycloneDX hash. */
export function integrityHash(integrity: string | undefined): SbomComponent["hashes"] {
  const match = /^(sha1|sha256|sha384|sha512)-([A-Za-z0-9+/=]+)$/.exec(integrity ?? "");
  if (!match) return undefined;
  const alg = ({ sha1: "SHA-1", sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512" } as const)[match[1] as "sha1"];
  return [{ alg, content: Buffer.from(match[2]!, "base64").toString("hex") }];
}
