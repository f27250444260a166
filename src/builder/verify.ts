/**
 * The build proves its artifact: the conformance checks of src/conform (describe equal to
 * manifest.json byte for byte among them) on every artifact this machine can run, with no `node`
 * on PATH.
 */
import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { which } from "../common/exec.js";
import { runChecks } from "../conform/index.js";
import type { PlatformKey } from "../protocol/index.js";

/** How to start a plugin: the shape `runChecks` of src/conform takes. */
export interface Launch {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Set when the launch goes through Wine (whose gaps are not the artifact's failures). */
  underWine?: boolean;
  /** Set when the launch runs under an emulator (qemu, Wine): checks then run one session at a time. */
  emulated?: boolean;
  /** Checks run one session at a time (a PyInstaller one-file executable unpacks itself at every start). */
  serial?: boolean;
}

/** Failures that are gaps of Wine itself (Debian's Wine 8), not of the artifact. */
const WINE_GAPS: Array<[RegExp, string]> = [
  [/bcryptprimitives\.dll not found/, "this Wine lacks bcryptprimitives.dll, which Go 1.24+ programs need"],
  [/open EBADF|only supported on Windows 8\.1/, "Node's stdio pipes do not open under this Wine (EBADF)"],
];

/** The Wine gap behind `failures`, when that is what they show. */
export function wineGap(failures: readonly string[]): string | undefined {
  return WINE_GAPS.find(([re]) => failures.some((f) => re.test(f)))?.[1];
}

export interface VerifyResult {
  ok: boolean;
  checks: "conform";
  /** `<check id>: <message>` of each failed check. */
  failures: string[];
}

/** PATH without any folder that holds node, so the artifact cannot lean on an installed Node. */
export function pathWithoutNode(path = process.env.PATH ?? ""): string {
  const names = process.platform === "win32" ? ["node.exe", "node.cmd"] : ["node"];
  return path
    .split(delimiter)
    .filter((dir) => dir && !names.some((n) => existsSync(join(dir, n))))
    .join(delimiter);
}

function envWithoutNode(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithoutNode() };
  for (const key of Object.keys(env)) if (key.startsWith("npm_") || key === "NODE_OPTIONS") delete env[key];
  return env;
}

const QEMU_AARCH64 = ["qemu-aarch64-static", "qemu-aarch64"];
const AARCH64_SYSROOT = "/usr/aarch64-linux-gnu";

/** How to run the artifact for `key` on this machine, or why it cannot run here. */
export function launchFor(key: PlatformKey, host: PlatformKey, binary: string): Launch | { skip: string } {
  const env = envWithoutNode();
  if (key === host) return { command: binary, args: [], env };
  if (key === "linux-aarch64" && host === "linux-x86_64") {
    const qemu = QEMU_AARCH64.map((q) => which(q)).find(Boolean);
    if (!qemu) return { skip: "qemu-user is not installed (Debian: qemu-user-static)" };
    if (!existsSync(AARCH64_SYSROOT) || readdirSync(AARCH64_SYSROOT).length === 0) {
      return { skip: `the arm64 C library is not installed at ${AARCH64_SYSROOT} (Debian: libc6-arm64-cross)` };
    }
    return { command: qemu, args: ["-L", AARCH64_SYSROOT, binary], env, emulated: true };
  }
  if (key === "windows-x86_64" && host === "linux-x86_64") {
    const wine = ["wine64", "wine"].map((w) => which(w)).find(Boolean);
    if (!wine) return { skip: "Wine is not installed (Debian: wine, wine64)" };
    return {
      command: wine,
      args: [binary],
      env: { ...env, WINEDEBUG: "-all", NODE_SKIP_PLATFORM_CHECK: "1" },
      underWine: true,
      emulated: true,
    };
  }
  return { skip: `a ${key} binary cannot run on ${host}` };
}

/** How many times longer the checks wait under an emulator (qemu-user runs a Node binary several times slower, more on a loaded machine). */
const EMULATOR_SLOWDOWN = 4;

/**
 * Runs the conformance checks against one launch of the artifact; describe must equal manifest.json
 * byte for byte (a describe without a name compared as if it named `defaultName`, when given).
 */
export async function verifyLaunch(
  launch: Launch,
  expectManifestText: string,
  defaultName?: string,
): Promise<VerifyResult> {
  const { command, args, env, cwd } = launch;
  const report = await runChecks(
    { command, args, ...(env && { env }), ...(cwd && { cwd }) },
    {
      expectManifestText,
      ...(defaultName && { defaultManifestName: defaultName }),
      ...((launch.emulated || launch.serial) && { concurrency: 1 }),
      ...(launch.emulated && { slowdown: EMULATOR_SLOWDOWN }),
    },
  );
  const failures = report.results
    .filter((r) => r.status === "fail")
    .map((r) => `${r.id}: ${r.message ?? r.description}`);
  return { ok: report.passed, checks: "conform", failures };
}
