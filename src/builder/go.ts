/** Go plugins: `go build -trimpath -ldflags "-s -w"`, CGO off, one GOOS/GOARCH per target. */
import { ExecutaError } from "../common/errors.js";
import { exec, tail, which } from "../common/exec.js";
import type { PlatformKey } from "../protocol/index.js";
import { goEnvFor } from "./targets/index.js";

export async function goVersion(): Promise<string> {
  if (!which("go")) {
    throw new ExecutaError("go is not installed, so a Go plugin cannot be built", {
      hint: "install Go 1.21 or newer (https://go.dev/dl/) and put it on PATH",
    });
  }
  const result = await exec("go", ["env", "GOVERSION"]);
  return result.stdout.trim().replace(/^go/, "");
}

/**
 * Builds the main package at `projectDir` for `key` into `outPath`; `sources` names another
 * package folder or the file set of one `main` in a folder that has several.
 */
export async function goBuild(
  projectDir: string,
  key: PlatformKey,
  outPath: string,
  sources: readonly string[] = ["."],
): Promise<void> {
  const result = await exec(
    "go",
    ["build", "-trimpath", "-buildvcs=false", "-ldflags", "-s -w", "-o", outPath, ...sources],
    {
      cwd: projectDir,
      env: { ...process.env, CGO_ENABLED: "0", ...goEnvFor(key) },
    },
  );
  if (result.code !== 0) {
    throw new ExecutaError(`go build for ${key} failed: ${tail(result.stderr, 4).replace(/\n/g, " / ")}`, {
      hint: `run \`go build ${sources.join(" ")}\` in the project to see the whole error`,
    });
  }
}
