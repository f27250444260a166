/** `executa manifest --check` before a build: through src/manifest/index.ts once it exists. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ExecutaError, ExitCode } from "../common/errors.js";

type CheckManifest = (projectDir: string) => Promise<unknown> | unknown;

const MANIFEST_MODULE = new URL("../manifest/index.js", import.meta.url);

async function loadCheckManifest(): Promise<CheckManifest | undefined> {
  if (!existsSync(fileURLToPath(MANIFEST_MODULE))) return undefined;
  const mod = (await import(MANIFEST_MODULE.href)) as { checkManifest?: CheckManifest };
  return typeof mod.checkManifest === "function" ? mod.checkManifest : undefined;
}

function isDrift(result: unknown): string | undefined {
  if (result === false) return "manifest.json does not match the source";
  if (result && typeof result === "object") {
    const r = result as { ok?: unknown; drift?: unknown; changes?: unknown; exitCode?: unknown; summary?: unknown };
    if (r.ok === false || r.drift === true || (typeof r.exitCode === "number" && r.exitCode !== 0)) {
      return typeof r.summary === "string" ? r.summary : "manifest.json does not match the source";
    }
  }
  return undefined;
}

/** Fails the build when manifest.json is out of date with the source; a no-op until the checker exists. */
export async function checkManifestBeforeBuild(projectDir: string): Promise<"checked" | "unavailable"> {
  const check = await loadCheckManifest();
  if (!check) return "unavailable";
  const drift = isDrift(await check(projectDir));
  if (drift) {
    throw new ExecutaError(`${drift}; the build would ship a stale describe`, {
      hint: "run `executa manifest` and commit manifest.json, then build again",
      exitCode: ExitCode.Failed,
    });
  }
  return "checked";
}
