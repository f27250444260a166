#!/usr/bin/env node
// Rewrites the README's generated tables from the code (`npm run docs:readme`, after `npm run build`):
// each `<!-- flags: verb -->` block from that command's declarations in src/cli, and the
// `<!-- checks -->` block from the conformance suite in src/conform. test/cli/readme-tables.test.ts
// fails when the README differs from what this writes.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { withFlagTables } from "../dist/src/cli/flag-table.js";
import { commandsOf } from "../dist/src/cli/program.js";
import { withCheckTable } from "../dist/src/conform/check-table.js";

const readme = join(dirname(fileURLToPath(import.meta.url)), "..", "README.md");
writeFileSync(readme, withCheckTable(withFlagTables(readFileSync(readme, "utf8"), commandsOf("executa"))));
process.stdout.write(`wrote the flag and check tables of ${readme}\n`);
