#!/usr/bin/env node
// Runs every compiled `*.test.js` under dist/ (or under the folders given) with node's test runner.
// Files are listed explicitly so that fixture plugins under test/ folders are never run as tests.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function find(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) find(path, out);
    else if (entry.endsWith(".test.js")) out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
const files = (roots.length ? roots : ["dist"]).flatMap((root) => (root.endsWith(".js") ? [root] : find(root))).sort();
const result = spawnSync(process.execPath, ["--test", "--test-concurrency=2", ...flags, ...files], { stdio: "inherit" });
process.exit(result.status ?? 1);
