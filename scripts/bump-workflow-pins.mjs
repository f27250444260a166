#!/usr/bin/env node
// Bumps data/workflow-pins.json, the pins every generated workflow renders: each action to the
// newest release tag of its major (or of any major with --major) and the commit that tag names
// (annotated tags peeled), read with `git ls-remote`; toolchain versions as given
// (`--python 3.12.11 --pyinstaller 6.23.0 --pytest 9.3.0 --node 22.24.0 --go 1.26.9`).
// `npm run data:pins -- [--major] [--<tool> <version>...]`, then run test/builder/workflows.test.ts.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "workflow-pins.json");
const args = process.argv.slice(2);
const anyMajor = args.includes("--major");
const pins = JSON.parse(readFileSync(FILE, "utf8"));

const parts = (tag) => tag.slice(1).split(".").map(Number);
const newer = (a, b) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

for (const [action, pin] of Object.entries(pins.actions)) {
  const out = execFileSync("git", ["ls-remote", "--tags", `https://github.com/${action}.git`], { encoding: "utf8" });
  const commits = new Map();
  for (const line of out.trim().split("\n")) {
    const [sha, ref] = line.split("\t");
    const m = /^refs\/tags\/(v\d+\.\d+\.\d+)(\^\{\})?$/.exec(ref ?? "");
    if (m && (m[2] || !commits.has(m[1]))) commits.set(m[1], sha);
  }
  const major = parts(pin.tag)[0];
  const best = [...commits.keys()]
    .filter((t) => anyMajor || parts(t)[0] === major)
    .reduce((a, b) => (newer(b, a) ? b : a), pin.tag);
  if (best !== pin.tag || commits.get(best) !== pin.sha)
    console.log(`${action}: ${pin.tag} ${pin.sha.slice(0, 12)} -> ${best} ${commits.get(best).slice(0, 12)}`);
  pins.actions[action] = { tag: best, sha: commits.get(best) ?? pin.sha };
}
for (let i = 0; i < args.length; i++) {
  const name = args[i].replace(/^--/, "");
  if (name === "major") continue;
  if (!(name in pins.toolchain) || !/^\d+\.\d+\.\d+$/.test(args[i + 1] ?? ""))
    throw new Error(
      `usage: --${name} needs an exact version X.Y.Z, for one of ${Object.keys(pins.toolchain).join(", ")}`,
    );
  console.log(`${name}: ${pins.toolchain[name]} -> ${args[i + 1]}`);
  pins.toolchain[name] = args[++i];
}
writeFileSync(FILE, JSON.stringify(pins, null, 2) + "\n");
