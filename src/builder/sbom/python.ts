/** The Python distributions a PyInstaller build collected, and the interpreter it froze. */
import { join } from "node:path";
import { PackageURL } from "packageurl-js";
import { HELPERS_DIR } from "../../common/package-info.js";
import { ExecutaError } from "../../common/errors.js";
import { exec, tail } from "../../common/exec.js";
import type { SbomComponent } from "./types.js";

const HELPER = join(HELPERS_DIR, "python", "pyinstaller_packages.py");

/** PyPI's normalised name (PEP 503), as purls of type pypi want it. */
const normalise = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

export async function pythonPackages(python: string, pyinstallerWork: string): Promise<SbomComponent[]> {
  const result = await exec(python, [HELPER, pyinstallerWork]);
  if (result.code !== 0) throw new ExecutaError(`could not list the Python packages PyInstaller collected: ${tail(result.stderr, 3)}`);
  const found = JSON.parse(result.stdout) as Array<{ name: string; version: string; license: string | null }>;
  return found.map((d) => ({
    type: "library" as const,
    name: d.name,
    version: d.version,
    purl: new PackageURL("pypi", undefined, normalise(d.name), d.version, undefined, undefined).toString(),
    ...(d.license && { license: d.license }),
  }));
}

/** The CPython interpreter PyInstaller froze into the artifact. */
export function cpython(version: string): SbomComponent {
  return {
    type: "platform",
    name: "cpython",
    version,
    purl: new PackageURL("generic", undefined, "cpython", version, undefined, undefined).toString(),
    license: "PSF-2.0",
    description: `The CPython ${version} interpreter and standard library, frozen by PyInstaller`,
  };
}
