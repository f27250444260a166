/** Scaffolds real projects in every language from the packed package and runs their own tests. */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { REPO_ROOT, installedToolchain, run, tempDir, toolchain } from "./toolchain.js";
import { requires, type ToolName } from "../support/requires.js";

const expectedTools = JSON.parse(readFileSync(join(REPO_ROOT, "test", "fixtures", "template-tools.json"), "utf8"));

const projectTests: Record<string, { needs: ToolName[]; commands: [string, string[]][] }> = {
  ts: { needs: [], commands: [["npm", ["test"]]] },
  python: { needs: ["python3", "pytest"], commands: [["python3", ["-m", "pytest", "-q"]]] },
  go: { needs: ["go"], commands: [["gofmt", ["-l", "."]], ["go", ["vet", "./..."]], ["go", ["test", "./..."]]] },
};

/** The project's own files: not installed dependencies, virtual environments or git's. */
function projectFiles(root: string, rel = ""): string[] {
  return readdirSync(join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return ["node_modules", ".venv", ".git", "dist", "__pycache__"].includes(e.name) ? [] : projectFiles(root, path);
    return [path];
  });
}

function create(dir: string, lang: string, extra: string[] = []) {
  const created = toolchain("create-executa", [dir, "--lang", lang, "--json", "--no-git", `--toolchain=file:${installedToolchain().tarball}`, ...extra]);
  assert.equal(created.status, 0, created.output);
  return JSON.parse(created.stdout) as { status: string; dryRun: boolean; files: string[]; steps: { step: string; status: string; message?: string }[] };
}

for (const lang of ["ts", "python", "go"] as const) {
  const { needs, commands } = projectTests[lang]!;
  describe(`a scaffolded ${lang} plugin`, requires(...needs), () => {
    const dir = join(tempDir(`scaffold-${lang}`), "word-tools");
    test("is created with a generated manifest", () => {
      const summary = create(dir, lang, lang === "ts" ? [] : ["--no-install"]);
      assert.equal(summary.status, "ok");
      assert.equal(summary.dryRun, false);
      const manifestStep = summary.steps.find((s) => s.step === "manifest");
      assert.equal(manifestStep?.status, "done", JSON.stringify(summary.steps));
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
      assert.equal(manifest.name, "word-tools");
      assert.equal(manifest.version, "0.1.0");
      assert.deepEqual(manifest.tools, expectedTools);
      assert.deepEqual(manifest.host_capabilities, ["llm.sample"]);
      assert.equal(manifest.credentials[0].name, "SIGNING_SECRET");
      if (lang === "ts") assert.equal(summary.steps.find((s) => s.step === "install")?.status, "done", JSON.stringify(summary.steps));
    });

    test("holds no absolute path of this machine in any generated file", () => {
      const machinePaths = [REPO_ROOT, dirname(installedToolchain().tarball), dir];
      for (const file of projectFiles(dir)) {
        const text = readFileSync(join(dir, file), "utf8");
        for (const path of machinePaths) assert.ok(!text.includes(path), `${file} contains ${path}`);
      }
    });

    test("passes its own test suite", () => {
      for (const [command, args] of commands) {
        const result = run(command, args, { cwd: dir, env: { CI: "true" } });
        assert.equal(result.status, 0, result.output);
        if (command === "gofmt") assert.equal(result.stdout.trim(), "", "gofmt wants to reformat:\n" + result.stdout);
      }
    });

    test("is in sync with its manifest", () => {
      const check = toolchain("executa", ["manifest", "--check", dir]);
      assert.equal(check.status, 0, check.output);
    });

    test("passes every conformance check, with 10,000 fuzzed frames", () => {
      const checked = toolchain("executa", ["test", "--dir", dir, "--fuzz", "10000", "--seed", "7", "--json"]);
      assert.equal(checked.status, 0, checked.output);
      const report = JSON.parse(checked.stdout);
      const failed = report.results.filter((r: { status: string }) => r.status !== "pass");
      assert.deepEqual(failed, [], checked.output);
    });
  });
}
