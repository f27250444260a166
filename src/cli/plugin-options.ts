/** What test, dev and inspect share: where the plugin is, how to start it, how the mock host answers. */
import { resolve } from "node:path";
import type { DetectedLaunch, MockHostOptions } from "../host/index.js";
import { commandAfterDashes } from "./command.js";

export const MOCK_HOST_OPTIONS = {
  sampling: { type: "string", describe: "How the mock host answers sampling: a canned reply text, 'echo', or 'rules:FILE.jsonl'" },
  storage: { type: "string", describe: "Keep the mock host's storage and uploads in this folder instead of memory" },
} as const;

export const PLUGIN_USAGE = "[dir] [options] [-- <command> [args...]]";

/** The launch: the command after `--` (run in dir), else detected from dir. */
export async function launchFrom(args: { dir: string; "--"?: string[] }): Promise<DetectedLaunch> {
  const command = commandAfterDashes(args);
  if (command) return { command: command[0]!, args: command.slice(1), cwd: resolve(args.dir), source: "the command after --" };
  const { detectLaunch } = await import("../host/index.js");
  return detectLaunch(args.dir);
}

export async function mockHostOptionsFrom(args: { sampling?: string; storage?: string }): Promise<MockHostOptions> {
  const { samplingModeFrom } = await import("../host/index.js");
  return { sampling: samplingModeFrom(args.sampling), ...(args.storage && { storageDir: resolve(args.storage) }) };
}
