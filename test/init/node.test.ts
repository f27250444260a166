/**
 * `executa init` on hand-written Node plugins from the corpus: a CommonJS package (package.json
 * bin) and a lone ESM file. After init, with no hand edit, test / dev / manifest --check / build
 * work, and the single executable runs; a construct that breaks the bundle is a located error.
 */
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { parse } from "yaml";
import { workflowMatrix } from "../../src/builder/index.js";
import { canonicalManifestJson } from "../../src/protocol/index.js";
import { adoptable, assertActionlintClean, assertToolchainWorks, executa, executaJson, readJson } from "./helpers.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

interface InitJson {
  status: string;
  type: string;
  tool_id: string;
  entry?: string;
  command?: string[];
  files: Array<{ path: string; status: string }>;
}

test("a CommonJS package: init takes package.json's entry and tool id, and needs no command (Anna's default starts it)", {
  timeout: 10 * 60_000,
}, async () => {
  const dir = adoptable("weather-credentials", { ".": "node/weather-credentials" });
  made.push(dir);
  const init = await executaJson<InitJson>(dir, "init");
  assert.equal(init.code, 0, init.shown);
  assert.deepEqual(init.out.files, [
    { path: "executa.json", status: "written" },
    { path: "manifest.json", status: "written" },
  ]);
  const executaJsonFile = readJson(join(dir, "executa.json"));
  assert.deepEqual(
    {
      tool_id: executaJsonFile.tool_id,
      type: executaJsonFile.type,
      name: executaJsonFile.name,
      version: executaJsonFile.version,
      entry: executaJsonFile.entry,
      manifest_source: executaJsonFile.manifest_source,
      command: executaJsonFile.command,
    },
    {
      tool_id: "tool-dev-weather-credentials",
      type: "node",
      name: "weather-credentials",
      version: "0.4.0",
      entry: "plugin.js",
      manifest_source: "plugin",
      command: undefined,
    },
  );
  assert.equal(executaJsonFile.display_name, "Weather (API key)", "plugin-level fields come from the describe");
  assert.deepEqual(
    (executaJsonFile.credentials as Array<{ name: string }>).map((c) => c.name),
    ["WEATHER_API_KEY"],
  );

  const build = await assertToolchainWorks(dir, "get_weather", { city: "Berlin" });
  assert.equal(build.targets[0]!.runtime, "node-sea");
  assert.equal(build.targets[0]!.file, "tool-dev-weather-credentials-linux-x86_64");

  const again = await executaJson<InitJson>(dir, "init");
  assert.equal(again.code, 0, again.shown);
  assert.deepEqual(
    again.out.files.map((f) => f.status),
    ["unchanged", "unchanged"],
    "init again finds what it would write",
  );

  // The plugin's code holds its version: a bump there and not in executa.json is caught.
  const plugin = join(dir, "plugin.js");
  writeFileSync(plugin, readFileSync(plugin, "utf8").replace('version: "0.4.0"', 'version: "0.5.0"'));
  const stale = await executa(dir, "manifest", "--check");
  assert.notEqual(stale.code, 0, stale.shown);
  assert.match(
    stale.stderr,
    /executa\.json version 0\.4\.0 differs from the version the plugin's describe answers \(0\.5\.0\)/,
  );
  writeFileSync(
    join(dir, "executa.json"),
    readFileSync(join(dir, "executa.json"), "utf8").replace('"version": "0.4.0"', '"version": "0.5.0"'),
  );
  assert.equal(
    (await executa(dir, "manifest")).code,
    0,
    "executa manifest rewrites manifest.json from the running plugin",
  );
  assert.equal(readJson(join(dir, "manifest.json")).version, "0.5.0");
  assert.equal((await executa(dir, "manifest", "--check")).code, 0);
});

test("a lone ESM file: init writes the command Anna needs and the workflow; build bundles it to CommonJS; import.meta.url names the executable, import.meta.resolve stays a located error", {
  timeout: 10 * 60_000,
}, async (t) => {
  const dir = adoptable("notes", { "notes-storage.mjs": "node/notes-storage.mjs" });
  made.push(dir);
  const init = await executaJson<InitJson>(dir, "init", "--ci");
  assert.equal(init.code, 0, init.shown);
  assert.equal(init.out.tool_id, "notes-storage");
  assert.deepEqual(init.out.command, ["node", "notes-storage.mjs"]);
  assert.equal(init.out.entry, "notes-storage.mjs");
  assert.deepEqual(
    init.out.files.map((f) => f.path),
    ["executa.json", "manifest.json", ".github/workflows/ci.yml"],
  );
  const described = (await executaJson<{ answer: unknown }>(dir, "dev", "--describe")).out.answer;
  assert.equal(
    readFileSync(join(dir, "manifest.json"), "utf8"),
    canonicalManifestJson(described),
    "manifest.json is the describe, canonical",
  );

  const workflow = parse(readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8")) as {
    jobs: Record<
      string,
      {
        needs?: string[];
        steps: Array<{ run?: string; with?: Record<string, unknown> }>;
        strategy?: { matrix: { target: string[] } };
      }
    >;
  };
  assert.equal(workflow.jobs.test, undefined, "no unit-test job: init does not know the plugin's tests");
  assert.deepEqual(workflow.jobs.build!.needs, ["manifest", "conformance"]);
  assert.deepEqual(
    workflow.jobs.build!.strategy!.matrix.target,
    workflowMatrix("ts").map((m) => m.target),
    "the TypeScript template's matrix",
  );
  const runs = Object.values(workflow.jobs).flatMap((j) => j.steps.map((s) => s.run ?? ""));
  assert.ok(!runs.some((r) => /^npm (ci|install|run)/.test(r)), "no package.json: nothing to install");
  assert.ok(
    runs
      .filter((r) => r.includes("executa "))
      .every((r) => r.startsWith('npx --yes --package="create-executa@$EXECUTA_PACKAGE" executa ')),
    runs.join("\n"),
  );
  assert.ok(!Object.values(workflow.jobs).some((j) => j.steps.some((s) => s.with?.cache)), "no lockfile: no npm cache");
  await assertActionlintClean(dir, (reason) => t.diagnostic(`actionlint skipped: ${reason}`));

  const source = readFileSync(join(dir, "notes-storage.mjs"), "utf8");
  appendFileSync(
    join(dir, "notes-storage.mjs"),
    '\nconst here = new URL(".", import.meta.url);\nprocess.stderr.write(`${here}\\n`);\n',
  );
  const built = await assertToolchainWorks(dir, "list_notes", {});
  assert.ok(
    built.notes.some((n) => /notes-storage\.mjs:\d+:\d+: warning: import\.meta names the executable/.test(n)),
    JSON.stringify(built.notes),
  );

  writeFileSync(
    join(dir, "notes-storage.mjs"),
    `${source}\nprocess.stderr.write(import.meta.resolve("./notes-storage.mjs"));\n`,
  );
  const broken = await executa(dir, "build");
  assert.equal(broken.code, 2, broken.shown);
  assert.match(broken.stderr, /notes-storage\.mjs:\d+:\d+: error: "import\.meta" is not available/);
  assert.match(
    broken.stderr,
    /hint: a single executable sets only import\.meta\.url, import\.meta\.filename and import\.meta\.dirname/,
  );
  assert.doesNotMatch(broken.stderr, /__dirname/, "a hint that crashes the plugin's ES modules");
});
