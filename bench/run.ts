/** `npm run bench`: runs every `*.bench.js` beside this file, one after the other. */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
let failed = 0;
for (const file of readdirSync(here)
  .filter((f) => f.endsWith(".bench.js"))
  .sort()) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  process.stdout.write(`\n## ${file.replace(/\.bench\.js$/, "")}\n\n`);
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
