#!/usr/bin/env node
// Rewrites the README's flag tables (each `<!-- flags: verb -->` block) from the commands'
// declarations in src/cli (`npm run docs:flags`, after `npm run build`). test/cli/readme-flags.test.ts
// fails when the README differs from what this writes.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { withFlagTables } from "../dist/src/cli/flag-table.js";
import { commandsOf } from "../dist/src/cli/program.js";

const readme = join(dirname(fileURLToPath(import.meta.url)), "..", "README.md");
writeFileSync(readme, withFlagTables(readFileSync(readme, "utf8"), commandsOf("executa")));
process.stdout.write(`wrote the flag tables of ${readme}\n`);
