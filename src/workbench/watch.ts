/**
 * Watches a plugin's sources (TS/JS, Python, Go, manifest.json) and calls back, debounced.
 * fs.watch is recursive where the platform supports it; elsewhere a 1 s mtime poll.
 */
import { readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, extname, join, sep } from "node:path";

const SOURCE = new Set([".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".py", ".go", ".json", ".toml", ".mod"]);
const IGNORED = new Set([
  "node_modules",
  ".git",
  "dist",
  "build",
  "__pycache__",
  ".venv",
  "venv",
  ".mypy_cache",
  ".pytest_cache",
  "vendor",
]);

export function isWatchedSource(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  if (parts.some((p) => IGNORED.has(p) || (p.startsWith(".") && p.length > 1))) return false;
  return SOURCE.has(extname(relative));
}

function snapshot(dir: string, out = new Map<string, number>(), rel = ""): Map<string, number> {
  let entries: string[];
  try {
    entries = readdirSync(join(dir, rel));
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = rel ? `${rel}${sep}${name}` : name;
    if (IGNORED.has(name) || name.startsWith(".")) continue;
    try {
      const st = statSync(join(dir, path));
      if (st.isDirectory()) snapshot(dir, out, path);
      else if (isWatchedSource(path)) out.set(path, st.mtimeMs);
    } catch {
      // vanished meanwhile
    }
  }
  return out;
}

export interface SourceWatcher {
  close(): void;
  mode: "fs.watch" | "poll";
}

export interface WatchOptions {
  debounceMs?: number;
  /** File names (any folder) whose changes are not reported, e.g. files the watcher's owner writes itself. */
  ignore?: readonly string[];
}

export function watchSources(
  dir: string,
  onChange: (files: string[]) => void,
  options: WatchOptions = {},
): SourceWatcher {
  const debounceMs = options.debounceMs ?? 250;
  const ignored = new Set(options.ignore ?? []);
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const fire = (file: string) => {
    if (ignored.has(basename(file))) return;
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, debounceMs);
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { recursive: true }, (_event, file) => {
      if (file && isWatchedSource(file.toString())) fire(file.toString());
    });
    return { mode: "fs.watch", close: () => (clearTimeout(timer), watcher!.close()) };
  } catch {
    let last = snapshot(dir);
    const poll = setInterval(() => {
      const now = snapshot(dir);
      for (const [file, mtime] of now) if (last.get(file) !== mtime) fire(file);
      for (const file of last.keys()) if (!now.has(file)) fire(file);
      last = now;
    }, 1000);
    return { mode: "poll", close: () => (clearTimeout(timer), clearInterval(poll)) };
  }
}
