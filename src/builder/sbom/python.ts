/** The Python distributions and native libraries a PyInstaller build collected, and the interpreter it froze. */
import { join } from "node:path";
import { PackageURL } from "packageurl-js";
import { HELPERS_DIR } from "../../common/package-info.js";
import { ExecutaError } from "../../common/errors.js";
import { exec, tail } from "../../common/exec.js";
import { pythonLicense } from "./licenses.js";
import { nativeLibraries, type BundledLibrary } from "./native.js";
import type { SbomComponent } from "./types.js";

const HELPER = join(HELPERS_DIR, "python", "pyinstaller_packages.py");

/** PyPI's normalised name (PEP 503), as purls of type pypi want it. */
const normalise = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

interface Collected {
  packages: Array<{
    name: string;
    version: string;
    expression: string | null;
    text: string | null;
    classifiers: string[];
    requires: string[];
  }>;
  libraries: BundledLibrary[];
}

/**
 * What PyInstaller put into the artifact, from its work folder: the distributions (with the
 * requirements between them; `declared` names the project's own) and the native libraries.
 */
export async function pythonPackages(
  python: string,
  pyinstallerWork: string,
  declared: readonly string[] = [],
): Promise<SbomComponent[]> {
  const result = await exec(python, [HELPER, pyinstallerWork]);
  if (result.code !== 0)
    throw new ExecutaError(`could not list the Python packages PyInstaller collected: ${tail(result.stderr, 3)}`);
  const found = JSON.parse(result.stdout) as Collected;
  const purls = new Map(
    found.packages.map((d) => [
      normalise(d.name),
      new PackageURL("pypi", undefined, normalise(d.name), d.version, undefined, undefined).toString(),
    ]),
  );
  const direct = new Set(declared.map(normalise));
  const packages = found.packages.map((d): SbomComponent => {
    const license = pythonLicense({ expression: d.expression, text: d.text, classifiers: d.classifiers });
    const dependsOn = d.requires.map((r) => purls.get(normalise(r))).filter((p): p is string => Boolean(p));
    return {
      type: "library",
      name: d.name,
      version: d.version,
      purl: purls.get(normalise(d.name))!,
      ...(license && { license }),
      ...(dependsOn.length && { dependsOn }),
      ...(direct.has(normalise(d.name)) && { direct: true }),
    };
  });
  return [...packages, ...(await nativeLibraries(found.libraries))];
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
