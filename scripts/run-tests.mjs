#!/usr/bin/env node
// Runs every compiled `*.test.js` under dist/ (or the files and folders given), a few files at a
// time, each in its own `node --test` process; prints each file's result as it finishes and, at
// the end, the totals and the slowest ten files. Files are listed explicitly so that fixture
// plugins under test/ folders are never run as tests. The end-to-end files share one packed and
// installed copy of this package (made here once; see test/e2e/toolchain.ts).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

function find(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) find(path, out);
    else if (entry.endsWith(".test.js")) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith("--"));
const flags = args.filter((a) => a.startsWith("--"));
const files = (roots.length ? roots : ["dist"]).flatMap((root) => (root.endsWith(".js") ? [root] : find(root))).sort();
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, Math.min(4, cpus().length + 1));

let work;
if (files.some((f) => f.includes("/e2e/")) && !process.env.EXECUTA_E2E_TARBALL) {
  work = mkdtempSync(join(tmpdir(), "executa-e2e-"));
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz")));
  const prefix = join(work, "prefix");
  mkdirSync(prefix);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--prefix", prefix, tarball], { stdio: ["ignore", "ignore", "inherit"] });
  process.env.EXECUTA_E2E_TARBALL = tarball;
  process.env.EXECUTA_E2E_BIN = join(prefix, "node_modules", ".bin");
}

const results = [];
function runFile(file) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--test", "--test-reporter=tap", ...flags, file], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => {
      const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(output)?.[1] ?? 0);
      const result = { file, code, ms: performance.now() - started, pass: count("pass"), fail: count("fail"), skipped: count("skipped") };
      results.push(result);
      const ok = code === 0 && result.fail === 0;
      process.stdout.write(`${ok ? "ok    " : "FAILED"} ${file} (${result.pass} passed${result.fail ? `, ${result.fail} failed` : ""}${result.skipped ? `, ${result.skipped} skipped` : ""}, ${(result.ms / 1000).toFixed(1)} s)\n`);
      if (!ok) process.stdout.write(output.split("\n").map((l) => `    ${l}`).join("\n") + "\n");
      resolve();
    });
  });
}

const started = performance.now();
let next = 0;
await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, async () => {
  while (next < files.length) await runFile(files[next++]);
}));
if (work) rmSync(work, { recursive: true, force: true });

const sum = (key) => results.reduce((n, r) => n + r[key], 0);
const failedFiles = results.filter((r) => r.code !== 0 || r.fail > 0);
process.stdout.write(`\n${sum("pass")} tests passed, ${sum("fail")} failed, ${sum("skipped")} skipped, in ${files.length} files, ${((performance.now() - started) / 1000).toFixed(1)} s (${concurrency} at a time)\n`);
process.stdout.write("slowest files:\n");
for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10)) process.stdout.write(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}\n`);
if (failedFiles.length) process.stdout.write(`failed files:\n${failedFiles.map((r) => `  ${r.file}`).join("\n")}\n`);
process.exit(failedFiles.length ? 1 : 0);
