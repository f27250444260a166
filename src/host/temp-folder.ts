/** The temp folder a plugin runs with: its own (TMPDIR, TEMP, TMP), made per session and removed with it. */
import { lstatSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { makeTempDir, removeNow } from "../common/cleanup.js";
import type { TransportFolder } from "./file-transport.js";

/** Makes a private temp folder and points the plugin's environment at it; returns where file transport may be. */
export function privateTempFolder(env: NodeJS.ProcessEnv): TransportFolder {
  const path = makeTempDir("executa-session-");
  env.TMPDIR = env.TEMP = env.TMP = path;
  const { dev, ino } = lstatSync(path);
  return { path, identity: { dev, ino } };
}

/** The temp folder the plugin inherits (not the host's to remove). */
export function inheritedTempFolder(env: NodeJS.ProcessEnv): TransportFolder {
  return { path: env.TMPDIR || env.TEMP || env.TMP || tmpdir() };
}

/** Files (not folders: a PyInstaller one-file binary unpacks itself into a `_MEI*` folder there) in the folder. */
export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** Removes a private temp folder (only once the plugin's process group is gone: nothing can swap names under it then). */
export function removeTempFolder(dir: string): void {
  removeNow(dir);
}
