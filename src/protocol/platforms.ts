/** Anna's platform keys (`get_platform_key()`): the one list every command uses. */
export const PLATFORMS = {
  "darwin-arm64": { os: "darwin", arch: "arm64" },
  "darwin-x86_64": { os: "darwin", arch: "x86_64" },
  "linux-x86_64": { os: "linux", arch: "x86_64" },
  "linux-aarch64": { os: "linux", arch: "aarch64" },
  "linux-armv7l": { os: "linux", arch: "armv7l" },
  "windows-x86_64": { os: "windows", arch: "x86_64" },
  "windows-arm64": { os: "windows", arch: "arm64" },
} as const;

export type PlatformKey = keyof typeof PLATFORMS;
export type PlatformOs = (typeof PLATFORMS)[PlatformKey]["os"];
export type PlatformArch = (typeof PLATFORMS)[PlatformKey]["arch"];

export const PLATFORM_KEYS = Object.keys(PLATFORMS) as PlatformKey[];

export function isPlatformKey(key: string): key is PlatformKey {
  return Object.hasOwn(PLATFORMS, key);
}

/** The executable file suffix on a platform. */
export function exeSuffix(key: PlatformKey): string {
  return PLATFORMS[key].os === "windows" ? ".exe" : "";
}

const NODE_OS: Record<string, PlatformOs> = { darwin: "darwin", linux: "linux", win32: "windows" };
const NODE_ARCH: Record<string, PlatformArch> = { x64: "x86_64", arm64: "arm64", arm: "armv7l" };

/** The platform key of a Node `process.platform` / `process.arch` pair, or undefined. */
export function platformKeyOf(platform: string, arch: string): PlatformKey | undefined {
  const os = NODE_OS[platform];
  let a = NODE_ARCH[arch];
  if (!os || !a) return undefined;
  if (os === "linux" && a === "arm64") a = "aarch64";
  const key = `${os}-${a}`;
  return isPlatformKey(key) ? key : undefined;
}

export function hostPlatformKey(): PlatformKey | undefined {
  return platformKeyOf(process.platform, process.arch);
}
