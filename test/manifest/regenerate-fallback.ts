/** Rewrites data/generated/precomputed-extractions.json from the current templates: `npm run data:fallback`. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { PRECOMPUTED_FILE } from "../../src/manifest/fallback/precomputed.js";
import { computeAll, renderPrecomputed } from "./fallback-data.js";

const entries = await computeAll();
const path = join(PACKAGE_ROOT, PRECOMPUTED_FILE);
writeFileSync(path, renderPrecomputed(entries));
process.stdout.write(
  `wrote ${path}: ${entries.map((e) => `${e.language} ${e.variant} (${e.extraction.tools.length} tools, ${e.files.length} files)`).join(", ")}\n`,
);
