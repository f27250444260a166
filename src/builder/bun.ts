/** `--runtime bun`: `bun build --compile` with the target's Bun runtime from npm, so it stays offline. */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { ExecutaError } from "../common/errors.js";
import { exec, tail } from "../common/exec.js";
import type { PlatformKey } from "../protocol/index.js";
import { adhocSign } from "./macho-sign.js";
import { isDarwin } from "./targets/index.js";

export async function bunCompile(options: {
  bun: string;
  entry: string;
  target: string;
  runtimePath: string;
  outFile: string;
  key: PlatformKey;
  identifier: string;
}): Promise<void> {
  const result = await exec(
    options.bun,
    [
      "build",
      "--compile",
      `--target=${options.target}`,
      `--compile-executable-path=${options.runtimePath}`,
      options.entry,
      "--outfile",
      options.outFile,
    ],
    { env: { ...process.env, BUN_INSTALL_CACHE_DIR: undefined, DO_NOT_TRACK: "1" } },
  );
  if (result.code !== 0) {
    throw new ExecutaError(
      `bun build --compile for ${options.key} failed: ${tail(result.stderr || result.stdout, 3).replace(/\n/g, " / ")}`,
    );
  }
  // bun adds .exe to a Windows target's output name
  if (!existsSync(options.outFile) && existsSync(`${options.outFile}.exe`))
    renameSync(`${options.outFile}.exe`, options.outFile);
  if (isDarwin(options.key))
    writeFileSync(options.outFile, adhocSign(readFileSync(options.outFile), options.identifier));
}
