/** Runs an extractor helper and reads the one JSON object it prints. */
import { exec, tail } from "../common/exec.js";
import { ExecutaError } from "../common/errors.js";
import { canonicalManifest, type Diagnostic, type ToolDefinition } from "../protocol/index.js";
import type { RawHostCall } from "./host-helpers.js";
import type { ToolBinding, ToolLocation } from "./model.js";

export interface HelperOutput {
  tools: ToolDefinition[];
  locations: ToolLocation[];
  /** Per tool, the calls on values reached from its context (host-helpers.ts resolves them). */
  hostCalls?: RawHostCall[][];
  bindings: ToolBinding[];
  diagnostics: Diagnostic[];
  packageDir?: string;
  bindingsSource?: string;
}

export class ToolchainMissing extends Error {}

/** The environment a helper runs in: ours, without the variables that would change how its interpreter or toolchain behaves. */
export function helperEnv(drop: RegExp, set: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !drop.test(k))), ...set };
}

export async function runHelper(
  command: string,
  args: string[],
  cwd: string,
  what: string,
  env?: NodeJS.ProcessEnv,
): Promise<HelperOutput> {
  const result = await exec(command, args, { cwd, timeoutMs: 120_000, ...(env && { env }) });
  if (result.spawnError) {
    if (result.spawnError.code === "ENOENT") throw new ToolchainMissing(`${command} was not found`);
    throw new ExecutaError(`cannot run ${command}: ${result.spawnError.message}`);
  }
  if (result.code !== 0) {
    throw new ExecutaError(`the ${what} failed (exit ${result.code}): ${tail(result.stderr || result.stdout)}`, {
      hint: "this is a bug in create-executa's extractor; please report it with the source that triggers it",
    });
  }
  try {
    const out = JSON.parse(result.stdout) as Omit<HelperOutput, "packageDir"> & { packageDir?: string | null };
    // Go's maps come out with sorted keys: give every tool and parameter the canonical key order.
    const tools = (canonicalManifest({ tools: out.tools }) as { tools: ToolDefinition[] }).tools;
    // Python's None (no package: no tools, or tools outside a package) arrives as null.
    const { packageDir, ...rest } = out;
    return { ...rest, tools, ...(typeof packageDir === "string" && { packageDir }) };
  } catch {
    throw new ExecutaError(`the ${what} printed no JSON: ${tail(result.stdout || result.stderr)}`);
  }
}
