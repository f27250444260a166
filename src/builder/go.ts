/** Go plugins: `go build -trimpath -ldflags "-s -w"`, CGO off, one GOOS/GOARCH per target. */
import { ExecutaError } from "../common/errors.js";
import { exec, tail, which } from "../common/exec.js";
import { capabilitiesForMethod } from "../protocol/capabilities.js";
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

/** The reverse-RPC methods whose Go helpers PUT bytes to a presigned URL (uploads.go, files.go). */
export const PUT_METHODS = ["host/uploadFile", "files/upload_begin"];

/** The Go runtime's build tag that leaves net/http out (http_put_omitted.go). */
export const NO_HTTP_TAG = "executa_no_http";

/**
 * The Go build tags for a manifest's `host_capabilities`: `executa_no_http` when they unlock no
 * method that PUTs bytes. The binary then leaves out net/http and the TLS and crypto code it
 * brings (about 1.5 MB of binary, 1.3 MB of resident memory); the runtime refuses those methods
 * without the capability before any PUT, so the plugin behaves the same.
 */
export function goBuildTags(hostCapabilities: unknown): string[] {
  const granted: unknown[] = Array.isArray(hostCapabilities) ? hostCapabilities : []; // manifest.json is the project's, unchecked
  const puts = PUT_METHODS.some((method) => capabilitiesForMethod(method).some((c) => granted.includes(c)));
  return puts ? [] : [NO_HTTP_TAG];
}

/** `go build`'s `-tags` for `tags`, plus any tags GOFLAGS gives (a `-tags` on the command line replaces those of GOFLAGS). */
export function goTagsFlag(tags: readonly string[], goflags = process.env.GOFLAGS ?? ""): string[] {
  if (tags.length === 0) return [];
  const fromGoflags = /(?:^|\s)--?tags=(\S*)/.exec(goflags)?.[1]?.split(",").filter(Boolean) ?? [];
  return ["-tags", [...new Set([...fromGoflags, ...tags])].join(",")];
}

/**
 * Builds the main package at `projectDir` for `key` into `outPath` with build `tags` (goBuildTags);
 * `sources` names another package folder or the file set of one `main` in a folder that has several.
 */
export async function goBuild(
  projectDir: string,
  key: PlatformKey,
  outPath: string,
  sources: readonly string[] = ["."],
  tags: readonly string[] = [],
): Promise<void> {
  const result = await exec(
    "go",
    ["build", "-trimpath", "-buildvcs=false", "-ldflags", "-s -w", ...goTagsFlag(tags), "-o", outPath, ...sources],
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
