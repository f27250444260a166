/**
 * `executa init` on hand-written Python plugins from the corpus: a lone script whose manifest has
 * no name, and a pyproject package. After init, test / dev / manifest --check / build (PyInstaller)
 * work without a hand edit, and the built executable runs.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { parse } from "yaml";
import { workflowMatrix } from "../../src/builder/index.js";
import { adoptable, assertActionlintClean, assertToolchainWorks, executaJson, readJson } from "./helpers.js";
import { requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

test("a lone script without a manifest name: the folder names it, Anna gets `python3 <script>`, the build is verified with that name", {
  ...requires("pyinstaller"),
  timeout: 10 * 60_000,
}, async (t) => {
  const dir = adoptable("unit-converter", { "convert.py": "python/strict_args.py" });
  made.push(dir);
  const init = await executaJson<{ tool_id: string; type: string; entry: string; command: string[] }>(
    dir,
    "init",
    "--ci",
  );
  assert.equal(init.code, 0, init.shown);
  assert.deepEqual(
    [init.out.type, init.out.tool_id, init.out.entry, init.out.command],
    ["python", "unit-converter", "convert.py", ["python3", "convert.py"]],
  );
  const manifest = readJson(join(dir, "manifest.json"));
  assert.equal(manifest.name, "unit-converter", "a manifest without name gets the tool_id, as --from-plugin does");
  assert.equal(readJson(join(dir, "executa.json")).name, "unit-converter");

  const workflow = parse(readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8")) as {
    jobs: Record<string, { strategy?: { matrix: { include: unknown[] } } }>;
  };
  assert.equal(workflow.jobs.test, undefined);
  assert.deepEqual(
    workflow.jobs.build!.strategy!.matrix.include,
    workflowMatrix("python").map((m) => ({ os: m.os, target: m.target })),
  );
  await assertActionlintClean(dir, (reason) => t.diagnostic(`actionlint skipped: ${reason}`));

  const build = await assertToolchainWorks(dir, "convert_length", { value: 1, from_unit: "km", to_unit: "m" });
  assert.equal(build.targets[0]!.runtime, "pyinstaller");
});

test("a pyproject package: init takes the [project.scripts] entry and needs no command; PyInstaller builds the script's function", {
  ...requires("pyinstaller"),
  timeout: 10 * 60_000,
}, async () => {
  const dir = adoptable("notebook", { "storage_notes/__main__.py": "python/storage_notebook.py" });
  made.push(dir);
  writeFileSync(join(dir, "storage_notes", "__init__.py"), "");
  writeFileSync(
    join(dir, "pyproject.toml"),
    '[project]\nname = "storage-notebook"\nversion = "0.2.0"\n\n[project.scripts]\nstorage-notebook = "storage_notes.__main__:main"\n',
  );
  const init = await executaJson<{ tool_id: string; entry: string; command?: string[] }>(dir, "init");
  assert.equal(init.code, 0, init.shown);
  assert.deepEqual(
    [init.out.tool_id, init.out.entry, init.out.command],
    ["storage-notebook", "storage_notes.__main__:main", undefined],
    "Anna's default (the script named tool_id) starts it",
  );
  await assertToolchainWorks(dir, "read_page", { page: "home" });
});
