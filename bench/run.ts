/**
 * `npm run bench`: runs every `*.bench.js` beside this file, one after the other, each with a temp
 * folder of its own (TMPDIR) that is removed when it ends.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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
  const temp = mkdtempSync(join(tmpdir(), "executa-bench-"));
  const result = spawnSync(process.execPath, [join(here, file)], {
    stdio: "inherit",
    env: { ...process.env, TMPDIR: temp },
  });
  rmSync(temp, { recursive: true, force: true, maxRetries: 2 });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
