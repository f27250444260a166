/**
 * Every template (`--template minimal|services`; `examples`, the default, in add-tool.test.ts) in every
 * language passes its own tests, `executa manifest --check --strict` and `executa test` out of the
 * box; a bad value lists them.
 */
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { TEMPLATE_NAMES } from "../../src/project/index.js";
import { REPO_ROOT, run, tempDir } from "./toolchain.js";
import { requires, type ToolName } from "../support/requires.js";

const executa = (args: string[], cwd?: string) =>
  run(process.execPath, [join(REPO_ROOT, "bin", "executa.js"), ...args], { ...(cwd && { cwd }), timeoutMs: 300_000 });

const ownTests: Record<string, { needs: ToolName[]; commands: [string, string[]][] }> = {
  ts: {
    needs: [],
    commands: [
      ["npx", ["tsc", "-p", "tsconfig.json"]],
      [process.execPath, ["--test", "dist/test/"]],
    ],
  },
  python: { needs: ["python3", "pytest"], commands: [["python3", ["-m", "pytest", "-q"]]] },
  go: {
    needs: ["go"],
    commands: [
      ["gofmt", ["-l", "."]],
      ["go", ["vet", "./..."]],
      ["go", ["test", "./..."]],
    ],
  },
};

test("an unknown --template is exit 2 listing every template with a line on each", () => {
  const r = executa([
    "create",
    join(tempDir("template-bad"), "p"),
    "--lang",
    "go",
    "--template",
    "fancy",
    "--yes",
    "--no-git",
    "--no-install",
  ]);
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /unknown template 'fancy'/);
  for (const name of TEMPLATE_NAMES) assert.match(r.stderr, new RegExp(`^\\s+${name}\\s+\\S`, "m"), r.stderr);
});

for (const lang of ["ts", "python", "go"] as const) {
  const { needs, commands } = ownTests[lang]!;
  // The default template, examples, is created and checked in add-tool.test.ts's journey.
  for (const template of TEMPLATE_NAMES.filter((t) => t !== "examples")) {
    describe(`${lang} --template ${template}`, requires(...needs), () => {
      const dir = join(tempDir(`template-${lang}-${template}`), `${template}-tools`);
      test("is created, in sync with its manifest, with no capability warnings", () => {
        const created = executa([
          "create",
          dir,
          "--lang",
          lang,
          "--template",
          template,
          "--yes",
          "--no-git",
          "--no-install",
          "--json",
        ]);
        assert.equal(created.status, 0, created.output);
        assert.equal(JSON.parse(created.stdout).template, template);
        const check = executa(["manifest", "--check", "--strict"], dir);
        assert.equal(check.status, 0, check.output);
      });
      test("passes its own tests", () => {
        if (lang === "ts") symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir"); // typescript and @types/node, as its devDependencies
        for (const [command, args] of commands) {
          const r = run(command, args, { cwd: dir, timeoutMs: 300_000 });
          assert.equal(r.status, 0, `${command} ${args.join(" ")}\n${r.output}`);
          if (command === "gofmt") assert.equal(r.stdout, "", "gofmt -l lists no file");
        }
      });
      test("passes executa test", () => {
        const r = executa(["test"], dir);
        assert.equal(r.status, 0, r.output);
        assert.match(r.stdout, / 0 failed/);
      });
    });
  }
}
