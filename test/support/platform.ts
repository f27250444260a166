/**
 * Anna's platform packages for the interop tier: the venv scripts/install-platform.mjs makes (at the
 * pins of data/platform-packages.json). Tests that need it use `requires("platform")`.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), "..", "..", "..", "..");

let known: { venv: string | undefined } | undefined;

/** The venv's folder when it holds the pinned packages, else undefined (asks the install script, once). */
export function platformVenv(): string | undefined {
  if (!known) {
    const r = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "install-platform.mjs"), "--check"], {
      encoding: "utf8",
    });
    known = { venv: r.status === 0 ? r.stdout.trim() : undefined };
  }
  return known.venv;
}

/** The venv's python; run the platform's code as `python -m <module>` (its bin/ scripts name a temporary folder). */
export function platformPython(): string {
  const venv = platformVenv();
  if (!venv) throw new Error("Anna's platform packages are not installed: run node scripts/install-platform.mjs");
  return join(venv, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
}
