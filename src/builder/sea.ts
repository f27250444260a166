/**
 * Node single executable applications: a SEA blob written by the host binary of the SAME Node
 * version as the target runtime, injected with postject (once per target, see sea-slot.ts);
 * Windows signatures are removed first, Mach-O results are ad-hoc signed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec, tail } from "../common/exec.js";
import type { PlatformKey } from "../protocol/index.js";
import { adhocSign } from "./macho-sign.js";
import type { FetchedFile } from "./npm-fetch.js";
import { runtimeWithBlob } from "./sea-slot.js";
import { isDarwin } from "./targets/index.js";

export interface SeaBlobOptions {
  /** The host node binary of the pinned version. */
  hostNode: string;
  /** The SEA main script, written to the work folder. */
  code: string;
  /** SEA assets by name (read with `node:sea`'s getAsset), written to the work folder. */
  assets?: Record<string, string>;
  workDir: string;
  /** V8 code cache in the blob: only valid when the target is the host platform. */
  useCodeCache: boolean;
  /** Startup snapshot (host architecture only); `code` must set the deserialize main function. */
  useSnapshot: boolean;
  /** File name stem inside the work folder. */
  label: string;
}

/** Environment for running the pinned node: none of the user's NODE_OPTIONS. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/** Writes the SEA blob with the pinned host node and returns it. */
export async function makeSeaBlob(options: SeaBlobOptions): Promise<Buffer> {
  const main = join(options.workDir, `${options.label}.cjs`);
  const output = join(options.workDir, `${options.label}.blob`);
  const configPath = join(options.workDir, `${options.label}.sea-config.json`);
  writeFileSync(main, options.code);
  const assets = Object.entries(options.assets ?? {}).map(([name, content], i) => {
    const file = `${options.label}.asset-${i}`;
    writeFileSync(join(options.workDir, file), content);
    return [name, file];
  });
  // Relative names: the blob records the main script's path, and the work folder's name is random.
  const config = {
    main: `${options.label}.cjs`,
    output: `${options.label}.blob`,
    disableExperimentalSEAWarning: true,
    useCodeCache: options.useCodeCache && !options.useSnapshot,
    useSnapshot: options.useSnapshot,
    execArgvExtension: "none",
    ...(assets.length > 0 && { assets: Object.fromEntries(assets) }),
  };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const result = await exec(options.hostNode, ["--experimental-sea-config", configPath], {
    cwd: options.workDir,
    env: cleanEnv(),
  });
  if (result.code !== 0) {
    throw new ExecutaError(
      `node could not write the single-executable blob: ${tail(result.stderr || result.stdout, 3).replace(/\n/g, " / ")}`,
      {
        hint: options.useSnapshot
          ? "a startup snapshot runs the plugin's setup at build time: it must not open files, sockets or stdin while loading"
          : "run the bundle with `node` to see the failure",
      },
    );
  }
  return readFileSync(output);
}

/**
 * Writes `outPath`: the target's node runtime with `blob` injected (see sea-slot.ts) and, for
 * macOS, ad-hoc signed with `identifier`. `workDir` is the build's temporary folder.
 */
export async function injectSea(
  runtime: FetchedFile,
  blob: Buffer,
  key: PlatformKey,
  outPath: string,
  identifier: string,
  workDir: string,
): Promise<void> {
  const bytes = await runtimeWithBlob(runtime, blob, key, join(workDir, `${key}.postject`));
  writeFileSync(outPath, isDarwin(key) ? adhocSign(bytes, identifier) : bytes, { mode: 0o755 });
}
