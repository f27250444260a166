#!/usr/bin/env node
// Rewrites data/anna-app-schema/capabilities.json from the anna-app-schema wheel pinned in
// data/platform-packages.json (`npm run data:platform`; needs python3 with pip). The file is the
// package's own (MIT); src/protocol/capabilities.ts must then list the same names (a test says so).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { packages } = JSON.parse(readFileSync(join(root, "data/platform-packages.json"), "utf8"));
const version = packages["anna-app-schema"];
const temp = mkdtempSync(join(tmpdir(), "executa-platform-data-"));
try {
  execFileSync(
    "python3",
    [
      "-m",
      "pip",
      "download",
      "--quiet",
      "--no-deps",
      "--only-binary=:all:",
      "--dest",
      temp,
      `anna-app-schema==${version}`,
    ],
    { stdio: "inherit" },
  );
  const wheel = readdirSync(temp).find((f) => f.endsWith(".whl"));
  if (!wheel) throw new Error(`no anna-app-schema ${version} wheel was downloaded`);
  const read =
    "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('acl/capabilities.json').decode())";
  const text = execFileSync("python3", ["-c", read, join(temp, wheel)], { encoding: "utf8" });
  const data = JSON.parse(text);
  if (data.version !== version)
    throw new Error(`the wheel's capabilities.json says version ${data.version}, expected ${version}`);
  const out = join(root, "data/anna-app-schema/capabilities.json");
  writeFileSync(out, text.endsWith("\n") ? text : text + "\n");
  process.stdout.write(
    `wrote ${out}: ${data.host_capabilities.length} host capabilities (anna-app-schema ${version})\n`,
  );
} finally {
  rmSync(temp, { recursive: true, force: true });
}
