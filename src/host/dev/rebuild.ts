/** The step `--watch` runs before a restart: TypeScript projects recompile (npm run compile); Go rebuilds on start. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { exec } from "../../common/exec.js";

export function rebuildStep(dir: string, language: string | undefined): (() => Promise<void>) | undefined {
  if (language !== "node") return undefined;
  const file = join(dir, "package.json");
  if (!existsSync(file)) return undefined;
  const scripts = ((JSON.parse(readFileSync(file, "utf8")) as { scripts?: Record<string, string> }).scripts ?? {});
  if (typeof scripts.compile !== "string") return undefined;
  return async () => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const r = await exec(npm, ["run", "--silent", "compile"], { cwd: dir });
    if (r.code !== 0) throw new Error(`npm run compile failed:\n${(r.stdout + r.stderr).trim().split("\n").slice(0, 10).join("\n")}`);
  };
}
