#!/usr/bin/env node
// Rewrites data/generated/go-std-packages.json: the import paths of Go's standard library (internal
// and vendored packages left out), which a Go plugin's module path must not be (`go mod init os`
// builds nothing: every import of os becomes ambiguous). `npm run data:go-std`; needs go.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const GO_STD_FILE = "data/generated/go-std-packages.json";

export function goStdPackages() {
  const out = execFileSync("go", ["list", "std"], {
    encoding: "utf8",
    env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "" },
  });
  return out
    .split("\n")
    .map((l) => l.trim())
    .filter((p) => p && !p.split("/").includes("internal") && !p.startsWith("vendor/"))
    .sort();
}

export function goVersion() {
  return execFileSync("go", ["env", "GOVERSION"], {
    encoding: "utf8",
    env: { ...process.env, GOTOOLCHAIN: "local" },
  }).trim();
}

export function renderGoStd(go, packages) {
  return JSON.stringify({ go, packages }, null, 2) + "\n";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(dirname(fileURLToPath(import.meta.url)), "..", GO_STD_FILE);
  const packages = goStdPackages();
  writeFileSync(path, renderGoStd(goVersion(), packages));
  process.stdout.write(`wrote ${path}: ${packages.length} packages\n`);
}
