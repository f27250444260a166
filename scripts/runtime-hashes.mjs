// Records this runtime version's file hashes in src/scaffold/upgrade/runtime-hashes.json (run after
// `npm run build`, once RUNTIME_VERSION is bumped). An entry already recorded is never rewritten:
// a changed runtime file needs a new version, which is what older projects upgrade from.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LANGUAGE_NAMES } from "../dist/src/project/index.js";
import { RUNTIME_VERSION } from "../dist/src/protocol/index.js";
import { currentRuntime, recordOf } from "../dist/src/scaffold/upgrade/index.js";

const table = fileURLToPath(new URL("../src/scaffold/upgrade/runtime-hashes.json", import.meta.url));
const history = JSON.parse(readFileSync(table, "utf8"));
const now = {};
for (const language of LANGUAGE_NAMES) now[language] = recordOf(RUNTIME_VERSION, await currentRuntime(language)).files;

const recorded = history[RUNTIME_VERSION];
if (recorded && JSON.stringify(recorded) !== JSON.stringify(now)) {
  console.error(
    `runtime version ${RUNTIME_VERSION} is already recorded with other files. Bump RUNTIME_VERSION in src/protocol/runtime.ts, add its section to docs/runtime-changes.md, build, and run this again.`,
  );
  process.exit(1);
}
history[RUNTIME_VERSION] = now;
writeFileSync(table, JSON.stringify(history, null, 2) + "\n");
console.log(
  `${recorded ? "already recorded" : "recorded"}: runtime version ${RUNTIME_VERSION} (${LANGUAGE_NAMES.map((l) => `${l} ${Object.keys(now[l]).length} files`).join(", ")})`,
);
