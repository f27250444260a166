/** The user's cache folder for runtimes (and builds): EXECUTA_CACHE_DIR, else the platform's cache home. */
import { homedir } from "node:os";
import { join } from "node:path";

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.EXECUTA_CACHE_DIR) return env.EXECUTA_CACHE_DIR;
  if (process.platform === "win32")
    return join(env.LOCALAPPDATA ?? join(homedir(), "AppData", "Local"), "executa", "Cache");
  if (process.platform === "darwin") return join(homedir(), "Library", "Caches", "executa");
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "executa");
}

/**
 * What builds keep to go faster (compressed archive pieces, runtimes prepared for a blob):
 * EXECUTA_BUILD_CACHE_DIR, else `build` in the cache folder. `--reproducible-check`'s second build
 * starts with an empty one, so it proves that what is kept there changes no byte.
 */
export function buildCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.EXECUTA_BUILD_CACHE_DIR || join(cacheDir(env), "build");
}
