/**
 * Plugin projects for the interop tier, made the way a user makes them: `executa create` (and
 * `executa add tool`) from this repository's CLI, then built with the language's own tools, and
 * launched the way Anna's harness launches them.
 */
import assert from "node:assert/strict";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, run, tempDir } from "../e2e/toolchain.js";

export const LANGUAGES = ["ts", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Project {
  lang: Language;
  dir: string;
  toolId: string;
  /** How the harness starts it; undefined for Python: the harness's default, `uv run --project <dir> <tool_id>`. */
  command: string[] | undefined;
}

export function executa(args: string[], cwd?: string) {
  const r = run(process.execPath, [join(REPO_ROOT, "bin", "executa.js"), ...args], {
    ...(cwd && { cwd }),
    timeoutMs: 300_000,
  });
  assert.equal(r.status, 0, r.output);
  return r;
}

/** Scaffolds `--template <template>` in `lang`; `prepare` may change it (e.g. add a tool) before it is built. */
export function scaffold(lang: Language, template: string, prepare?: (project: Project) => void): Project {
  const name = `interop-${template}-${lang}`;
  const dir = join(tempDir(name), name);
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
  const project: Project = { lang, dir, toolId: JSON.parse(created.stdout).toolId, command: undefined };
  prepare?.(project);
  build(project);
  return project;
}

function build(project: Project): void {
  const { lang, dir, toolId } = project;
  if (lang === "ts") {
    symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir"); // typescript and @types/node, its devDependencies
    const r = run(
      process.execPath,
      [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
      { cwd: dir },
    );
    assert.equal(r.status, 0, r.output);
    project.command = [process.execPath, join(dir, "dist", "src", "main.js")];
  } else if (lang === "go") {
    const binary = join(dir, "bin", toolId);
    const r = run("go", ["build", "-o", binary, "."], { cwd: dir });
    assert.equal(r.status, 0, r.output);
    project.command = [binary];
  }
}

/**
 * Adds the tool `blob` ({size} -> {size, blob: "x" * size}) with `executa add tool` and writes its
 * body: a result of any size, for the result-limit cases.
 */
export function addBlobTool(project: Project): void {
  const added = executa([
    "add",
    "tool",
    "blob",
    project.dir,
    "--description",
    "Return a string of size x's.",
    "--param",
    "size:integer",
    "--yes",
    "--json",
  ]);
  const file = (JSON.parse(added.stdout) as { files: string[] }).files[0]!; // the tool's source, then its test
  const edits: Record<Language, [from: string, to: string][]> = {
    ts: [["return { size };", 'return { size, blob: "x".repeat(size) };']],
    python: [['return {"size": size}', 'return {"size": size, "blob": "x" * size}']],
    go: [
      ['import "context"', 'import (\n\t"context"\n\t"strings"\n)'],
      ["(*BlobArgs, error)", "(map[string]any, error)"],
      ["return &args, nil", 'return map[string]any{"size": args.Size, "blob": strings.Repeat("x", args.Size)}, nil'],
    ],
  };
  for (const [from, to] of edits[project.lang]) {
    const path = join(project.dir, file);
    const text = readFileSync(path, "utf8");
    assert.ok(
      text.includes(from),
      `executa add tool wrote ${file} without ${JSON.stringify(from)}; update addBlobTool`,
    );
    writeFileSync(path, text.replace(from, to));
  }
}
