/** The JavaScript runtime a TypeScript artifact carries: the npm package its binary came from. */
import { PackageURL } from "packageurl-js";
import { integrityHash, type SbomComponent } from "./types.js";

export function jsRuntime(options: {
  runtime: "node" | "bun";
  version: string;
  pkg: string;
  integrity?: string;
}): SbomComponent {
  const at = options.pkg.startsWith("@") ? options.pkg.indexOf("/") : -1;
  const hashes = integrityHash(options.integrity);
  return {
    type: "platform",
    name: options.runtime,
    version: options.version,
    purl: new PackageURL(
      "npm",
      at > 0 ? options.pkg.slice(0, at) : undefined,
      at > 0 ? options.pkg.slice(at + 1) : options.pkg,
      options.version,
      undefined,
      undefined,
    ).toString(),
    license: "MIT",
    ...(hashes && { hashes }),
    description: `The ${options.runtime === "node" ? "Node.js" : "Bun"} ${options.version} runtime, from the npm package ${options.pkg}@${options.version}`,
  };
}
