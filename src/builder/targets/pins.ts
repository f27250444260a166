/**
 * What the generated workflows run, pinned (data/workflow-pins.json): each action by the commit
 * its tag named, and the toolchain at exact versions. `npm run data:pins` bumps the table;
 * `executa upgrade` brings a plugin's workflow up to it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../common/package-info.js";

export interface ActionPin {
  tag: string;
  /** The full commit SHA the tag named when it was pinned. */
  sha: string;
}

export interface WorkflowPins {
  actions: Record<string, ActionPin>;
  toolchain: { python: string; pyinstaller: string; pytest: string; node: string; go: string };
}

export const WORKFLOW_PINS_FILE = join(PACKAGE_ROOT, "data", "workflow-pins.json");

export const WORKFLOW_PINS = JSON.parse(readFileSync(WORKFLOW_PINS_FILE, "utf8")) as WorkflowPins;

/** `owner/repo@<sha> # <tag>`: what a workflow's `uses:` says for a pinned action. */
export function pinnedAction(action: string): string {
  const pin = WORKFLOW_PINS.actions[action];
  if (!pin) throw new Error(`no pin for the action ${action} in data/workflow-pins.json`);
  return `${action}@${pin.sha} # ${pin.tag}`;
}

/** The exact version of a toolchain piece the workflows install. */
export function toolchainVersion(name: keyof WorkflowPins["toolchain"]): string {
  const version = WORKFLOW_PINS.toolchain[name];
  if (!version) throw new Error(`no pinned version of ${name} in data/workflow-pins.json`);
  return version;
}
