#!/usr/bin/env node
// After tsc: writes the help text of both command lines beside the compiled CLI, for the fast path
// of a bare `--help` (src/cli/fast.ts). A test proves these files equal to the live help.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "src", "cli", "help");
mkdirSync(out, { recursive: true });
for (const program of ["executa", "create-executa"]) {
  const text = execFileSync(process.execPath, [join(root, "bin", `${program}.js`), "--help"], {
    env: { ...process.env, EXECUTA_NO_FAST_PATH: "1", NO_COLOR: "1" },
    encoding: "utf8",
  });
  writeFileSync(join(out, `${program}.txt`), text);
}
