/** User text that tries to break every file type still gives projects that parse and compile. */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse as parseYaml } from "yaml";
import { REPO_ROOT, installedToolchain, run, tempDir, toolchain } from "./toolchain.js";
import { requires, type ToolName } from "../support/requires.js";

const hostile: string[] = JSON.parse(readFileSync(join(REPO_ROOT, "test", "fixtures", "hostile-strings.json"), "utf8"));
const text = hostile.join("\n");

const compile: Record<string, { needs: ToolName[]; check: (dir: string) => void }> = {
  ts: {
    needs: [],
    check: (dir) => {
      const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
      const result = run(process.execPath, [
        tsc,
        "-p",
        dir,
        "--noEmit",
        "--typeRoots",
        join(REPO_ROOT, "node_modules", "@types"),
      ]);
      assert.equal(result.status, 0, result.output);
      assert.equal(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).description, text);
    },
  },
  python: {
    needs: ["python3"],
    check: (dir) => {
      const result = run("python3", [
        "-c",
        "import compileall, sys, tomllib, json; ok = compileall.compile_dir(sys.argv[1], quiet=1); print(json.dumps(tomllib.load(open(sys.argv[1] + '/pyproject.toml', 'rb'))['project'])); sys.exit(0 if ok else 1)",
        dir,
      ]);
      assert.equal(result.status, 0, result.output);
      const project = JSON.parse(result.stdout);
      assert.equal(project.description, text);
    },
  },
  go: {
    needs: ["go"],
    check: (dir) => {
      for (const args of [
        ["vet", "./..."],
        ["build", "-o", join(dir, "plugin-under-test"), "."],
      ]) {
        const result = run("go", args, { cwd: dir });
        assert.equal(result.status, 0, result.output);
      }
    },
  },
};

for (const [lang, { needs, check }] of Object.entries(compile)) {
  describe(`${lang} project from hostile text`, requires(...needs), () => {
    const dir = join(tempDir(`hostile-${lang}`), "hostile-plugin");
    test("is written, and every file parses and compiles", () => {
      const created = toolchain("create-executa", [
        dir,
        "--lang",
        lang,
        "--no-install",
        "--no-git",
        "--json",
        `--toolchain=file:${installedToolchain().tarball}`,
        "--display-name",
        text,
        "--description",
        text,
        "--author",
        text,
      ]);
      assert.equal(created.status, 0, created.output);
      const executa = JSON.parse(readFileSync(join(dir, "executa.json"), "utf8"));
      assert.equal(executa.display_name, text);
      assert.equal(executa.description, text);
      assert.equal(executa.author, text);
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
      assert.equal(manifest.display_name, text);
      assert.equal(manifest.description, text);
      for (const workflow of readdirSync(join(dir, ".github", "workflows"))) {
        assert.doesNotThrow(
          () => parseYaml(readFileSync(join(dir, ".github", "workflows", workflow), "utf8")),
          workflow,
        );
      }
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      assert.doesNotMatch(readme, /<\/script>/, "README carries raw HTML from user text");
      check(dir);
    });
  });
}
