/**
 * `executa init` on a Go folder with several `main` files (the public Go examples' layout, which
 * `go build .` cannot build): refused without --entry, leaving the folder as it was; adopted with
 * --entry; then test / dev / manifest --check / build (the file set of that main) work.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { parse } from "yaml";
import { workflowMatrix } from "../../src/builder/index.js";
import {
  adoptable,
  assertActionlintClean,
  assertToolchainWorks,
  executa,
  executaJson,
  goToolsFolder,
  readJson,
  snapshot,
  tempFolder,
} from "./helpers.js";
import { requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

test("several main files: refused without --entry (the folder byte for byte as it was), adopted with --entry, built from that main's file set", {
  ...requires("go"),
  timeout: 10 * 60_000,
}, async (t) => {
  const dir = tempFolder("gotools");
  made.push(dir);
  goToolsFolder(dir);
  const before = snapshot(dir);

  const refused = await executa(dir, "init");
  assert.equal(refused.code, 2, refused.shown);
  assert.match(
    refused.stderr,
    /executa: error: several ways to start the plugin in .*gotools, and no terminal to ask on:\n\s+github\.go\s+go: a Go file with func main\n\s+sampling\.go\s+go: a Go file with func main\n/,
  );
  assert.match(
    refused.stderr,
    /hint: choose one: executa init --entry github\.go \| executa init --entry sampling\.go; or give the command: executa init -- <command> \[args\]/,
  );
  const refusedJson = await executaJson<{ status: string; error: { message: string; hint: string } }>(dir, "init");
  assert.equal(refusedJson.code, 2);
  assert.equal(refusedJson.out.status, "error");
  assert.match(refusedJson.out.error.hint, /--entry sampling\.go/);
  assert.deepEqual(snapshot(dir), before, "a refusal leaves the folder byte for byte as it was");

  const dry = await executaJson<{ status: string; files: Array<{ status: string }> }>(
    dir,
    "init",
    "--entry",
    "sampling.go",
    "--dry-run",
  );
  assert.equal(dry.code, 0, dry.shown);
  assert.deepEqual(
    dry.out.files.map((f) => f.status),
    ["would-write", "would-write"],
  );
  assert.deepEqual(snapshot(dir), before, "--dry-run writes nothing");

  const init = await executaJson<{ type: string; entry: string; command: string[] }>(
    dir,
    "init",
    "--entry",
    "sampling.go",
    "--ci",
  );
  assert.equal(init.code, 0, init.shown);
  assert.deepEqual(
    [init.out.type, init.out.entry, init.out.command],
    ["go", "sampling.go", ["go", "run", "sampling.go", "channel.go"]],
    "the main file and the folder's helper, not the other main",
  );
  assert.equal(readJson(join(dir, "executa.json")).tool_id, "sampling-tool");
  const again = await executaJson<{ files: Array<{ status: string }> }>(dir, "init", "--ci");
  assert.equal(again.code, 0, `init again, without --entry, takes the plugin its executa.json names: ${again.shown}`);
  assert.deepEqual(
    again.out.files.map((f) => f.status),
    ["unchanged", "unchanged", "unchanged"],
  );
  const workflow = parse(readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8")) as {
    jobs: Record<string, { strategy?: { matrix: { target: string[] } }; steps: Array<{ run?: string }> }>;
  };
  assert.equal(workflow.jobs.test, undefined, "no `go vet ./...`: a folder with several mains is not one package");
  assert.deepEqual(
    workflow.jobs.build!.strategy!.matrix.target,
    workflowMatrix("go").map((m) => m.target),
  );
  assert.ok(
    !Object.values(workflow.jobs).some((job) => job.steps.some((s) => /executa upgrade/.test(s.run ?? ""))),
    "an adopted plugin has no vendored runtime to upgrade",
  );
  await assertActionlintClean(dir, (reason) => t.diagnostic(`actionlint skipped: ${reason}`));

  const build = await assertToolchainWorks(dir, "classify", { text: "a short text to classify" });
  assert.equal(build.targets[0]!.runtime, "go");
  const other = await executa(dir, "build", "--target", "windows-arm64", "--no-verify");
  assert.equal(other.code, 0, `the file set cross-builds like a package: ${other.shown}`);
});

test("a module with its program in cmd/<name>/: init offers that package, and the toolchain works on it", {
  ...requires("go"),
  timeout: 10 * 60_000,
}, async () => {
  const dir = adoptable("cmdlayout", {
    "go.mod": "go/sampling-tool/go.mod",
    "cmd/sampling-tool/main.go": "go/sampling-tool/main.go",
  });
  made.push(dir);
  const init = await executaJson<{ type: string; entry: string; command: string[]; tool_id: string }>(
    dir,
    "init",
    "--yes",
  );
  assert.equal(init.code, 0, init.shown);
  assert.deepEqual(
    [init.out.type, init.out.entry, init.out.command, init.out.tool_id],
    ["go", "cmd/sampling-tool", ["go", "run", "./cmd/sampling-tool"], "sampling-tool"],
  );
  await assertToolchainWorks(dir, "classify", { text: "a short text to classify" });
});
