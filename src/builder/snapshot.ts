/**
 * `--snapshot`: the entry of a SEA startup snapshot. At build time it loads every tool module
 * (through the bindings) and runs `src/executa.snapshot.ts` when the plugin has one, so that
 * work is in the snapshot; the plugin's main runs when the executable starts.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../common/errors.js";

export function snapshotEntrySource(projectDir: string): string {
  const src = join(projectDir, "src");
  if (!existsSync(join(src, "main.ts"))) {
    throw new ExecutaError("entry src/main.ts not found", { hint: "a TypeScript plugin's entry is src/main.ts" });
  }
  const lines = ['const v8 = require("node:v8");', "const loads = [];"];
  if (existsSync(join(src, "executa.bindings.ts"))) {
    lines.push(
      'const { bindings } = require("./executa.bindings");',
      'for (const binding of Object.values(bindings)) if (binding && typeof binding.load === "function") loads.push(binding.load());',
    );
  }
  if (existsSync(join(src, "executa.snapshot.ts"))) lines.push('require("./executa.snapshot");');
  lines.push(
    "Promise.all(loads).catch((error) => { console.error(error); process.exitCode = 1; });",
    'v8.startupSnapshot.setDeserializeMainFunction(() => { require("./main"); });',
    "",
  );
  return lines.join("\n");
}
