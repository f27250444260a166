#!/usr/bin/env node
// Runs the compiled `*.test.js` files of a tier, or the files and folders given, a few at a time,
// each in its own `node --test` process; prints each file's result as it finishes and, at the end,
// the totals and the slowest ten files.
//
//   node scripts/run-tests.mjs            the fast tier (`npm test`)
//   node scripts/run-tests.mjs --all      both tiers (`npm run test:all`, CI)
//   node scripts/run-tests.mjs dist/test/e2e/registry.test.js dist/src/   just these
//
// Which file is in which tier is said once, in test/support/tiers.ts. Files run longest first, from
// the durations a tier run records in test/durations.json; a file tiers.ts says runs after another
// waits for it to finish. Files are listed explicitly so that
// fixture plugins under test/ folders are never run as tests. The end-to-end files share one packed
// and installed copy of this package, and the registry files one local registry, made here once
// while the files that need neither run (see test/e2e/toolchain.ts and test/e2e/local-registry.ts).
// Other `--` flags go to `node --test`.
import { execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
// One cache of runtimes and build work (prepared runtimes, archive pieces) for every file, the
// end-to-end files' `executa build` included: the folder test/builder/helpers.ts falls back to.
process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");
const tiers = await import(join(REPO_ROOT, "dist", "test", "support", "tiers.js")).catch(() => {
  process.stderr.write("run-tests: dist/test/support/tiers.js is missing; run `npm run build` first\n");
  process.exit(2);
});
const startup = await import(join(REPO_ROOT, "dist", "test", "support", "startup.js"));
startup.passOverPythonShim(process.env);
startup.deferCertificateLoading(process.env);

function find(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) find(path, out);
    else if (entry.endsWith(".test.js")) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const all = args.includes("--all");
const roots = args.filter((a) => !a.startsWith("--"));
const flags = args.filter((a) => a.startsWith("--") && a !== "--all");
const tierRun = roots.length === 0;
const found = (tierRun ? ["dist"] : roots).flatMap((root) => {
  const stat = statSync(root, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return find(root);
  if (stat && root.endsWith(".test.js")) return [root];
  process.stderr.write(`run-tests: ${root} is neither a folder nor a compiled test file (dist/**/*.test.js)\n`);
  process.exit(2);
});
const durationsPath = join(REPO_ROOT, tiers.DURATIONS_FILE);
const durations = existsSync(durationsPath) ? JSON.parse(readFileSync(durationsPath, "utf8")) : {};
const files = tiers.schedule(tierRun && !all ? found.filter((f) => !tiers.isFullTier(f)) : found, durations);
// Two files more than cores: many files wait on plugins, timeouts and installs part of the time.
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.min(4, cpus().length + 2);
process.stdout.write(
  `${tierRun ? (all ? "both tiers" : "the fast tier (npm run test:all runs both)") : "the files given"}: ${files.length} files\n`,
);

/**
 * What the files that `serves` picks need, made once by `make` while the files that need none of it
 * already run; `done` once made. A failure stops the run.
 */
function gate(serves, make) {
  const g = { serves, done: false, promise: make() };
  g.promise.then(
    () => (g.done = true),
    (error) => {
      process.stderr.write(`run-tests: ${error.stack ?? error}\n`);
      process.exit(2);
    },
  );
  return g;
}
const gates = [];
const needsToolchain = (file) => file.includes("/e2e/");
let work;
let toolchain;
if (files.some(needsToolchain) && !process.env.EXECUTA_E2E_TARBALL) {
  work = mkdtempSync(join(tmpdir(), "executa-e2e-"));
  toolchain = gate(needsToolchain, () => packAndInstall(work));
  gates.push(toolchain);
}
let registry;
if (files.some((f) => tiers.needsRegistry(f)) && !process.env.EXECUTA_E2E_REGISTRY_URL) {
  gates.push(
    gate(tiers.needsRegistry, async () => {
      await toolchain?.promise; // the registry publishes the packed package
      const { startLocalRegistry } = await import(join(REPO_ROOT, "dist", "test", "e2e", "local-registry.js"));
      registry = await startLocalRegistry(mkdtempSync(join(tmpdir(), "executa-registry-")));
      process.env.EXECUTA_E2E_REGISTRY_URL = registry.url;
      process.env.EXECUTA_E2E_REGISTRY_ROOT = registry.root;
    }),
  );
}

// A file that tiers.ts says runs after another has that file's end as its gate.
const ends = new Map(); // a prerequisite -> resolves its gate when it has run
for (const first of new Set(files.map((f) => tiers.prerequisite(f, files)).filter(Boolean))) {
  gates.push(
    gate(
      (file) => tiers.prerequisite(file, files) === first,
      () => new Promise((resolve) => ends.set(first, resolve)),
    ),
  );
}

async function packAndInstall(dir) {
  await execFileAsync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir]);
  const tarball = join(
    dir,
    readdirSync(dir).find((f) => f.endsWith(".tgz")),
  );
  const prefix = join(dir, "prefix");
  mkdirSync(prefix);
  await execFileAsync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--prefix", prefix, tarball]);
  process.env.EXECUTA_E2E_TARBALL = tarball;
  process.env.EXECUTA_E2E_BIN = join(prefix, "node_modules", ".bin");
}

const ready = (file) => gates.every((g) => g.done || !g.serves(file));

/** The next file to run, in schedule order among those whose gates are open. */
async function nextFile(queue) {
  for (;;) {
    const at = queue.findIndex(ready);
    if (at >= 0) return queue.splice(at, 1)[0];
    if (queue.length === 0) return undefined;
    await Promise.race(gates.filter((g) => !g.done).map((g) => g.promise));
  }
}

// Each file's temporary folders go in a folder of its own (TMPDIR, which Node, Python and Go all
// follow), removed when the file ends: what a test leaves behind, a failed one's included, does not
// pile up in the system's temp folder run after run.
const temps = mkdtempSync(join(tmpdir(), "executa-tests-"));
process.on("exit", () => rmSync(temps, { recursive: true, force: true, maxRetries: 2 }));

const results = [];
function runFile(file) {
  return new Promise((resolve) => {
    const started = performance.now();
    const temp = mkdtempSync(join(temps, "file-"));
    const child = spawn(process.execPath, ["--test", "--test-reporter=tap", ...flags, file], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, TMPDIR: temp },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => {
      const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(output)?.[1] ?? 0);
      const result = {
        file,
        code,
        ms: performance.now() - started,
        pass: count("pass"),
        fail: count("fail") + count("cancelled"),
        skipped: count("skipped"),
      };
      results.push(result);
      ends.get(file)?.();
      rm(temp, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
      const ok = code === 0 && result.fail === 0;
      process.stdout.write(
        `${ok ? "ok    " : "FAILED"} ${file} (${result.pass} passed${result.fail ? `, ${result.fail} failed` : ""}${result.skipped ? `, ${result.skipped} skipped` : ""}, ${(result.ms / 1000).toFixed(1)} s)\n`,
      );
      if (!ok)
        process.stdout.write(
          output
            .split("\n")
            .map((l) => `    ${l}`)
            .join("\n") + "\n",
        );
      resolve();
    });
  });
}

const started = performance.now();
const queue = [...files];
await Promise.all(
  Array.from({ length: Math.min(concurrency, files.length) }, async () => {
    for (let file = await nextFile(queue); file; file = await nextFile(queue)) await runFile(file);
  }),
);
registry?.stop();
if (registry) rmSync(registry.root, { recursive: true, force: true });
if (work) rmSync(work, { recursive: true, force: true });

if (tierRun) {
  // Every file that exists keeps its last recorded time; a removed file's entry goes.
  const recorded = Object.fromEntries(
    found
      .map(tiers.relativeToDist)
      .filter((f) => f in durations)
      .map((f) => [f, durations[f]]),
  );
  for (const r of results) recorded[tiers.relativeToDist(r.file)] = Math.round(r.ms / 100) / 10;
  const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(durationsPath, `${JSON.stringify(sorted, null, 2)}\n`);
}

const sum = (key) => results.reduce((n, r) => n + r[key], 0);
const failedFiles = results.filter((r) => r.code !== 0 || r.fail > 0);
process.stdout.write(
  `\n${sum("pass")} tests passed, ${sum("fail")} failed, ${sum("skipped")} skipped, in ${files.length} files, ${((performance.now() - started) / 1000).toFixed(1)} s (${concurrency} at a time)\n`,
);
process.stdout.write("slowest files:\n");
for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10))
  process.stdout.write(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}\n`);
if (failedFiles.length) process.stdout.write(`failed files:\n${failedFiles.map((r) => `  ${r.file}`).join("\n")}\n`);
process.exit(failedFiles.length ? 1 : 0);
