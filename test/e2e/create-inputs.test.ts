/** What `create-executa` does with bad or missing input: a clear error, exit 2, nothing lost. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { tempDir, toolchain } from "./toolchain.js";

const quiet = ["--no-install", "--no-git"];

test("an unknown --lang lists the valid languages", () => {
  const dir = join(tempDir("lang"), "p");
  const r = toolchain("create-executa", [dir, "--lang", "rust", ...quiet]);
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /executa: error: unknown language 'rust'/);
  assert.match(r.stderr, /ts, python, go/);
  assert.equal(existsSync(dir), false);
});

test("an invalid name says why and how to fix it", () => {
  const dir = join(tempDir("name"), "Bad_Name");
  const r = toolchain("create-executa", [dir, "--lang", "ts", ...quiet]);
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /not a valid project name/);
  assert.match(r.stderr, /--name/);
  assert.equal(existsSync(dir), false);
});

test("without a terminal, a missing language is an error that prints the one-shot command", () => {
  const dir = join(tempDir("noninteractive"), "my-plugin");
  const r = toolchain("create-executa", [dir, ...quiet], { env: { CI: "" } });
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /no language given/);
  assert.match(r.stderr, /npm create executa@latest .*my-plugin -- --lang ts --yes/);
  assert.equal(existsSync(dir), false);
});

test("a non-empty folder is refused without --force, and nothing in it changes", () => {
  const dir = tempDir("nonempty");
  writeFileSync(join(dir, "notes.txt"), "mine");
  const r = toolchain("create-executa", [dir, "--name", "my-plugin", "--lang", "go", ...quiet]);
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /not empty/);
  assert.match(r.stderr, /--force/);
  assert.deepEqual(readdirSync(dir), ["notes.txt"]);
});

test("--force stops, writing nothing, when a project file already exists", () => {
  const dir = tempDir("conflict");
  writeFileSync(join(dir, "README.md"), "my readme");
  const r = toolchain("create-executa", [dir, "--name", "my-plugin", "--lang", "python", "--force", ...quiet]);
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /never overwrites.*README\.md/);
  assert.deepEqual(readdirSync(dir), ["README.md"]);
  assert.equal(readFileSync(join(dir, "README.md"), "utf8"), "my readme");
});

for (const [lang, mine] of [
  ["go", "manifest.json"],
  ["ts", "src/executa.bindings.ts"],
  ["python", "my_plugin/executa_bindings.py"],
] as const) {
  test(`--force never overwrites a file the manifest step would write (${lang}: ${mine})`, () => {
    const dir = tempDir("force-generated");
    mkdirSync(join(dir, dirname(mine)), { recursive: true });
    writeFileSync(join(dir, mine), "mine");
    const r = toolchain("create-executa", [dir, "--name", "my-plugin", "--lang", lang, "--force", "--json", ...quiet]);
    assert.equal(r.status, 2, r.output);
    assert.equal(JSON.parse(r.stdout).status, "error");
    assert.match(r.stderr, new RegExp(`never overwrites.*${mine.replace(/[./]/g, "\\$&")}`));
    assert.equal(readFileSync(join(dir, mine), "utf8"), "mine");
    assert.deepEqual(readdirSync(dir), [mine.split("/")[0]]);
  });
}

test("--force refuses a folder whose install output exists (package-lock.json) unless --no-install", () => {
  const dir = tempDir("force-install");
  writeFileSync(join(dir, "package-lock.json"), "{}");
  const r = toolchain("create-executa", [dir, "--name", "my-plugin", "--lang", "ts", "--force", "--no-git"]);
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /never overwrites.*package-lock\.json/);
  assert.deepEqual(readdirSync(dir), ["package-lock.json"]);
});

test("--force adds the project beside unrelated files", () => {
  const dir = tempDir("force");
  writeFileSync(join(dir, "notes.txt"), "mine");
  const r = toolchain("create-executa", [dir, "--name", "my-plugin", "--lang", "go", "--force", "--json", ...quiet]);
  assert.equal(r.status, 0, r.output);
  assert.equal(readFileSync(join(dir, "notes.txt"), "utf8"), "mine");
  assert.ok(existsSync(join(dir, "executa.json")));
});

test("--dry-run lists the files and writes nothing", () => {
  const dir = join(tempDir("dry"), "my-plugin");
  const r = toolchain("create-executa", [dir, "--lang", "python", "--dry-run", "--json", ...quiet]);
  assert.equal(r.status, 0, r.output);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.status, "ok");
  assert.equal(summary.dryRun, true);
  assert.ok(summary.files.includes("executa.json"));
  assert.ok(summary.files.includes("my_plugin/__main__.py"), summary.files.join(","));
  assert.ok(summary.files.includes(".gitignore"));
  assert.equal(existsSync(dir), false);
});

test("executa create is the same command, and --yes fills every default", () => {
  const parent = tempDir("yes");
  const r = toolchain("executa", ["create", "--yes", "--json", ...quiet], { cwd: parent });
  assert.equal(r.status, 0, r.output);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.lang, "ts");
  assert.equal(summary.name, "my-executa-plugin");
  assert.ok(existsSync(join(parent, "my-executa-plugin", "package.json")));
});
