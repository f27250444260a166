/**
 * The one place that says which test files are in which tier (scripts/run-tests.mjs reads it from
 * dist/). `npm test` runs the fast tier: every compiled test file except those listed here.
 * `npm run test:all` runs both tiers, as CI does. Entries are paths under dist/ (a folder ends with
 * "/"); tiers.test.ts proves each names something that exists, so a rename cannot slip a slow
 * file into the fast tier.
 */

/** The full tier only: builds for every target, registries, a browser, the packed package. */
export const FULL_TIER: readonly string[] = [
  "test/e2e/", // the packed package installed and run as a user runs it, registries included
  "test/builder/", // SEA, Bun, Go and PyInstaller builds for every target, qemu verification
  "test/init/", // init adopts existing projects and builds them
  "test/interop/", // the platform's own packages drive our plugins
  "test/cli/examples.test.js", // every example of every verb's help, builds included
  "test/plugins/corpus.test.js", // 22 plugins written by others, Go ones built, each under the whole suite
  "test/workbench/inspect-browser.test.js", // Chromium
  "test/workbench/inspect-languages.test.js", // Chromium, three languages
];

/** Files that publish to the local registry: the runner starts one verdaccio for all of them. */
export const REGISTRY_FILES: readonly string[] = [
  "test/e2e/registry.test.js",
  "test/e2e/package-managers.test.js",
  "test/e2e/lockfile.test.js",
];

/**
 * Files that start only once another has finished (when both are in the run). Both of these build a
 * Go plugin for every target: with an empty Go build cache, as on CI, running them together compiles
 * the standard library for each target twice at once; one after the other, the second finds it
 * compiled.
 */
export const RUNS_AFTER: Readonly<Record<string, string>> = {
  "test/cli/examples.test.js": "test/builder/go.test.js",
};

/** The file this one waits for, when that file is among `files` (paths as the runner lists them). */
export function prerequisite(file: string, files: readonly string[]): string | undefined {
  const first = RUNS_AFTER[relativeToDist(file)];
  return first === undefined ? undefined : files.find((f) => relativeToDist(f) === first);
}

/** Recorded per-file durations (seconds) that schedule the longest files first. */
export const DURATIONS_FILE = "test/durations.json";

/** A compiled test file's path without the leading `dist/`, the form the lists above use. */
export function relativeToDist(file: string): string {
  return file.replace(/\\/g, "/").replace(/^(\.\/)?dist\//, "");
}

export function isFullTier(file: string): boolean {
  const path = relativeToDist(file);
  return FULL_TIER.some((entry) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry));
}

export function needsRegistry(file: string): boolean {
  return REGISTRY_FILES.includes(relativeToDist(file));
}

/**
 * The order to run files in: unknown ones first (a new file may be the slowest), then the longest
 * recorded first, so that the last file to start is a short one.
 */
export function schedule(files: readonly string[], durations: Readonly<Record<string, number>>): string[] {
  const seconds = (file: string) => durations[relativeToDist(file)] ?? Infinity;
  return [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
}
