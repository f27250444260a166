/**
 * The build proves its artifact: the conformance checks of src/conform (or, until they exist, a
 * smoke: describe equals manifest.json byte for byte, every stdout line a JSON-RPC frame, alive
 * until EOF) on every artifact this machine can run, with no `node` on PATH.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { which } from "../common/exec.js";
import { canonicalManifestJson, frameKind, type PlatformKey } from "../protocol/index.js";

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
  /** "conform" when src/conform ran, "smoke" otherwise. */
  checks: "conform" | "smoke";
  failures: string[];
  /** The plugin's stderr (its tail), when the smoke ran. */
  stderr?: string;
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
    return { command: wine, args: [binary], env: { ...env, WINEDEBUG: "-all", NODE_SKIP_PLATFORM_CHECK: "1" }, underWine: true, emulated: true };
  }
  return { skip: `a ${key} binary cannot run on ${host}` };
}

type RunChecks = (launch: Launch, options: { expectManifestText: string; concurrency?: number }) => Promise<unknown>;
const CONFORM_MODULE = new URL("../conform/index.js", import.meta.url);

async function loadRunChecks(): Promise<RunChecks | undefined> {
  if (!existsSync(fileURLToPath(CONFORM_MODULE))) return undefined;
  const mod = (await import(CONFORM_MODULE.href)) as { runChecks?: RunChecks };
  return typeof mod.runChecks === "function" ? mod.runChecks : undefined;
}

/** Reads a conform report of any reasonable shape: ok / passed flags, or a list of checks. */
function conformFailures(report: unknown): string[] {
  if (report === true) return [];
  if (!report || typeof report !== "object") return ["the conformance checks returned no report"];
  const r = report as Record<string, unknown>;
  const list = (Array.isArray(r.checks) ? r.checks : Array.isArray(r.results) ? r.results : []) as Array<Record<string, unknown>>;
  const failed = list
    .filter((c) => c.ok === false || c.passed === false || c.status === "fail" || c.status === "failed")
    .map((c) => `${String(c.name ?? c.id ?? "check")}: ${String(c.message ?? c.detail ?? c.error ?? "failed")}`);
  if (failed.length > 0) return failed;
  if (r.ok === false || r.passed === false || (typeof r.failed === "number" && r.failed > 0)) {
    return [String(r.summary ?? r.message ?? "the conformance checks failed")];
  }
  return [];
}

const STARTUP_TIMEOUT_MS = 60_000;
const ALIVE_AFTER_MS = 1_000;
const EXIT_TIMEOUT_MS = 10_000;

/** The minimal smoke: initialize, describe (byte for byte), health; alive until EOF; exit 0. */
export function smoke(launch: Launch, expectManifestText: string): Promise<{ failures: string[]; stderr: string }> {
  return new Promise((resolve) => {
    const failures: string[] = [];
    const child = spawn(launch.command, launch.args, { env: launch.env, cwd: launch.cwd, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    let buffered = "";
    let stderr = "";
    const answers = new Map<unknown, Record<string, unknown>>();
    let exited: number | null | undefined;
    let phase: "starting" | "alive" | "closing" = "starting";
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      timers.forEach(clearTimeout);
      if (exited === undefined) child.kill("SIGKILL");
      const lines = stderr.trim().split("\n");
      const shown = [...new Set([lines[0], ...lines.slice(-2)])].join(" / ");
      resolve({ failures: failures.map((f) => (stderr.trim() ? `${f} (stderr: ${shown})` : f)), stderr });
    };
    child.on("error", (error) => {
      failures.push(`could not start: ${error.message}`);
      exited = null;
      finish();
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      buffered += data;
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let frame: unknown;
        try {
          frame = JSON.parse(line);
        } catch {
          failures.push(`stdout line is not JSON: ${line.slice(0, 80)}`);
          continue;
        }
        if (frameKind(frame) === "invalid" || (frame as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
          failures.push(`stdout line is not a JSON-RPC 2.0 frame: ${line.slice(0, 80)}`);
          continue;
        }
        const f = frame as Record<string, unknown>;
        if ("id" in f) answers.set(f.id, f);
      }
      if (phase === "starting" && answers.has(1) && answers.has(2) && answers.has(3)) {
        phase = "alive";
        const describe = answers.get(2)!;
        if (!("result" in describe)) failures.push(`describe failed: ${JSON.stringify(describe.error)}`);
        else if (canonicalManifestJson(describe.result) !== expectManifestText) {
          failures.push("describe does not equal manifest.json byte for byte (run `executa manifest`, then build again)");
        }
        if ((answers.get(1)!.result as Record<string, unknown> | undefined)?.protocolVersion === undefined) failures.push("initialize has no protocolVersion");
        if ((answers.get(3)!.result as Record<string, unknown> | undefined)?.status !== "ready") failures.push("health is not ready");
        timers.push(
          setTimeout(() => {
            if (exited !== undefined) return;
            phase = "closing";
            child.stdin.end();
            timers.push(setTimeout(() => {
              failures.push(`did not exit within ${EXIT_TIMEOUT_MS / 1000} s of stdin EOF`);
              finish();
            }, EXIT_TIMEOUT_MS));
          }, ALIVE_AFTER_MS),
        );
      }
    });
    child.on("exit", (code, signal) => {
      exited = code;
      if (phase !== "closing") failures.push(`exited before stdin EOF (code ${code}${signal ? `, ${signal}` : ""})`);
      else if (code !== 0) failures.push(`exit code ${code} after stdin EOF, expected 0`);
      if (buffered.trim()) failures.push(`stdout ended with a partial line: ${buffered.slice(0, 80)}`);
      finish();
    });
    timers.push(setTimeout(() => {
      if (phase === "starting") {
        failures.push(`no answers to initialize, describe and health within ${STARTUP_TIMEOUT_MS / 1000} s`);
        finish();
      }
    }, STARTUP_TIMEOUT_MS));
    const send = (id: number, method: string, params: object) =>
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    child.stdin.on("error", () => undefined);
    send(1, "initialize", { protocolVersion: "1.1", clientInfo: { name: "executa-build", version: "1" } });
    send(2, "describe", {});
    send(3, "health", {});
  });
}

/** Runs the conformance checks (or the smoke) against one launch of the artifact. */
export async function verifyLaunch(launch: Launch, expectManifestText: string): Promise<VerifyResult> {
  const runChecks = await loadRunChecks();
  if (runChecks) {
    const { command, args, env, cwd } = launch;
    const spec = { command, args, ...(env && { env }), ...(cwd && { cwd }) };
    const failures = conformFailures(await runChecks(spec, { expectManifestText, ...(launch.emulated && { concurrency: 1 }) }));
    return { ok: failures.length === 0, checks: "conform", failures };
  }
  const { failures, stderr } = await smoke(launch, expectManifestText);
  return { ok: failures.length === 0, checks: "smoke", failures, stderr };
}
