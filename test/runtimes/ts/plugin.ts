/**
 * The TypeScript test plugin of the runtime vectors: templates/ts's runtime serving the test-only
 * tools of test/runtimes/test-plugin.json (its path is the first argument). EXECUTA_TEST_CAPABILITIES
 * (a JSON array) replaces the manifest's host_capabilities.
 */
import { readFileSync } from "node:fs";
import { run, type Bindings, type Manifest, type ToolFunction } from "../../../templates/ts/src/executa/index.js";

const manifest = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Manifest;
const capabilities = process.env.EXECUTA_TEST_CAPABILITIES;
if (capabilities) manifest.host_capabilities = JSON.parse(capabilities) as string[];

const load = (name: string) => async () =>
  (await import("./tools.js"))[name as keyof typeof import("./tools.js")] as ToolFunction;
const bindings: Bindings = Object.fromEntries(
  manifest.tools.map((t) => [t.name, { style: "args", load: load(t.name) }]),
);

run({ manifest, bindings });
