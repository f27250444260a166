/**
 * The TypeScript test plugin of the runtime vectors: templates/ts's runtime serving the test-only
 * tools of test/runtimes/test-plugin.json (its path is the first argument). EXECUTA_TEST_CAPABILITIES
 * (a JSON array) replaces the manifest's host_capabilities. EXECUTA_TEST_IMPORT_DELAY_MS delays each
 * import of the tool module, as a module with a slow top-level await would.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { run, type Bindings, type Manifest, type ToolFunction } from "../../../templates/ts/src/executa/index.js";

const manifest = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Manifest;
const capabilities = process.env.EXECUTA_TEST_CAPABILITIES;
if (capabilities) manifest.host_capabilities = JSON.parse(capabilities) as string[];

const importDelayMs = Number(process.env.EXECUTA_TEST_IMPORT_DELAY_MS ?? 0);

const load = (name: string) => async () => {
  if (importDelayMs > 0) await sleep(importDelayMs);
  return (await import("./tools.js"))[name as keyof typeof import("./tools.js")] as ToolFunction;
};
const bindings: Bindings = Object.fromEntries(
  manifest.tools.map((t) => [t.name, { style: "args", load: load(t.name) }]),
);

run({ manifest, bindings });
