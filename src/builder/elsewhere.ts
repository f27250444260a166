/**
 * The second build of `--reproducible-check` runs elsewhere: a copy of the project in another
 * folder, fresh build caches, another time zone and another umask. What it keeps: downloads that
 * are verified by hash before use (the Node/Bun runtimes in executa's cache, Go's module cache,
 * checked against go.sum), and the installed toolchains and packages (node_modules, .venv).
 */
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";

export interface Conditions {
  /** The copy's folder. */
  projectDir: string;
  timeZone: string;
  /** Octal, as `umask` prints it. */
  umask: string;
  /** Environment variables pointing each build cache at an empty folder. */
  freshCaches: Record<string, string>;
}

/** Build caches a second build must not share with the first. */
const CACHE_VARIABLES = ["GOCACHE", "PYINSTALLER_CONFIG_DIR", "EXECUTA_BUILD_CACHE_DIR"] as const;

/** A zone whose offset differs from this one's now (and from UTC). */
export function otherTimeZone(offsetMinutes = new Date().getTimezoneOffset()): string {
  return offsetMinutes === -14 * 60 ? "America/Adak" : "Pacific/Kiritimati";
}

/** A umask that differs from `current` in the group and other bits the outputs' modes could show. */
export function otherUmask(current: number): number {
  return current === 0o077 ? 0o002 : 0o077;
}

/** Copies the project into `root` (outside the original), leaving out `.git` and the output folder. */
export function copyProject(projectDir: string, outDir: string, root: string): string {
  const copy = join(root, "project", basename(projectDir));
  const out = relative(projectDir, outDir);
  const skip = (path: string) => {
    const rel = relative(projectDir, path);
    return rel === ".git" || (out !== "" && !out.startsWith("..") && (rel === out || rel.startsWith(out + sep)));
  };
  mkdirSync(join(root, "project"), { recursive: true });
  cpSync(projectDir, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => !skip(resolve(src)) });
  return copy;
}

/** Runs `work` in the copy under the other conditions (environment and umask restored, fresh caches removed after). */
export async function elsewhere<T>(
  projectDir: string,
  outDir: string,
  root: string,
  work: (conditions: Conditions) => Promise<T>,
): Promise<T> {
  const caches = join(root, "caches");
  const freshCaches = Object.fromEntries(CACHE_VARIABLES.map((name) => [name, join(caches, name.toLowerCase())]));
  for (const dir of Object.values(freshCaches)) mkdirSync(dir, { recursive: true });
  const copy = copyProject(projectDir, outDir, root);
  const saved = Object.fromEntries(["TZ", ...CACHE_VARIABLES].map((name) => [name, process.env[name]]));
  const timeZone = otherTimeZone();
  const before = process.umask(0o022);
  const mask = otherUmask(before);
  process.umask(mask);
  Object.assign(process.env, freshCaches, { TZ: timeZone });
  try {
    return await work({ projectDir: copy, timeZone, umask: mask.toString(8).padStart(3, "0"), freshCaches });
  } finally {
    // A kept second build is inspected without them, and they can take a gigabyte.
    rmSync(caches, { recursive: true, force: true });
    process.umask(before);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
