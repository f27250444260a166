/**
 * Every regex and parser over project text is linear, or bounded with a clear error: the three
 * extractors (and the project files they read) fed long pathological lines and deep nesting
 * answer within a bound, with the manifest or a file:line:col error, never a hang or a crash.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { tsProject } from "../manifest/helpers.js";
import { requires } from "../support/requires.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const CREATE = join(PACKAGE_ROOT, "bin", "create-executa.js");
/** Each input takes well under a second here; before these were linear, the same took minutes. */
const BOUND_MS = 20_000;
const LONG = 240_000;
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Timed {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
  shown: string;
}

function manifest(dir: string, ...args: string[]): Timed {
  const started = performance.now();
  const r = spawnSync(process.execPath, [EXECUTA, "manifest", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 200_000,
  });
  const ms = performance.now() - started;
  return {
    code: r.status,
    ms,
    stdout: r.stdout,
    stderr: r.stderr,
    shown: `exit ${r.status} after ${Math.round(ms)} ms\n--- stderr\n${r.stderr.slice(0, 2000)}`,
  };
}

function assertBounded(r: Timed, what: string): void {
  assert.ok(r.ms < BOUND_MS, `${what} took ${Math.round(r.ms)} ms (bound ${BOUND_MS} ms)\n${r.shown}`);
  assert.doesNotMatch(r.stderr, /unexpected failure|this is a bug/, r.shown);
}

function scaffold(lang: "python" | "go", label: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), `executa-pathological-${label}-`)), "fuzzed");
  made.push(join(dir, ".."));
  const r = spawnSync(
    process.execPath,
    [CREATE, dir, "--lang", lang, "--template", "minimal", "--no-install", "--no-git", "--yes"],
    { encoding: "utf8", env: { ...process.env, CI: "true" } },
  );
  assert.equal(r.status, 0, r.stderr);
  return dir;
}

describe("TypeScript", () => {
  test("long lines in JSDoc, a member comment of blank lines, a long string: the manifest, within the bound", () => {
    const spaces = " ".repeat(LONG);
    const dir = tsProject({
      "src/tools.ts": `/**
 * Echo the text.${spaces}x
 * @tool
 * @param args ${spaces}
 */
export function echo(args: {
  /*${"\n   ".repeat(LONG / 4)}What to echo. */
  text: string;
}) { return args.text + ${JSON.stringify("a".repeat(LONG))}.length; }
`,
    });
    made.push(dir);
    const r = manifest(dir);
    assertBounded(r, "a TS project of long lines");
    assert.equal(r.code, 0, r.shown);
    const tool = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).tools[0];
    assert.equal(tool.parameters[0].description, "What to echo.");
  });

  test("an imported object literal nested 1,000 deep: a file:line:col error, not a crash", () => {
    const deep = "{ a: ".repeat(1000) + "1" + " }".repeat(1000);
    const dir = tsProject({
      "src/deep.ts": `export const deep = ${deep};\n`,
      "src/tools.ts": `import { deep } from "./deep.js";\n/**\n * Echo.\n * @tool\n */\nexport function echo(args: {\n  /** Text. */\n  text: string;\n}) { return args.text + String(deep); }\n`,
    });
    made.push(dir);
    const r = manifest(dir, "--json");
    assertBounded(r, "a deep TS literal");
    assert.equal(r.code, 2, r.shown);
    const error = (
      JSON.parse(r.stdout) as {
        diagnostics: { severity: string; file?: string; line?: number; column?: number; message: string }[];
      }
    ).diagnostics.find((d) => d.severity === "error")!;
    assert.deepEqual(
      [error.file, error.line, error.column],
      ["src/deep.ts", 1, "export const deep = ".length + 5 * 999 + 1],
    );
    assert.match(error.message, /nests 1000 levels deep here, deeper than the TypeScript compiler can read/);
    const human = manifest(dir);
    assert.match(human.stderr, /^src\/deep\.ts:1:\d+: error: the code nests 1000 levels deep/m);
  });
});

describe("Python", requires("python3"), () => {
  test("a docstring with a long line of spaces after a section name and in a parameter line: the manifest, within the bound", () => {
    const dir = scaffold("python", "py");
    const spaces = " ".repeat(LONG);
    writeFileSync(
      join(dir, "fuzzed", "tools.py"),
      `from .executa import tool


@tool
def shout(text: str) -> str:
    """Shout the text.

    Notes:
        Args${spaces}x
        Returns${spaces}

    Args:
        text${spaces}(str${spaces}x
        text ${spaces}: What to shout.
    """
    return text.upper()
`,
    );
    const r = manifest(dir);
    assertBounded(r, "a Python docstring of long lines");
    assert.equal(r.code, 0, r.shown);
    const tool = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).tools.find(
      (t: { name: string }) => t.name === "shout",
    );
    assert.equal(tool.parameters[0].description, "What to shout.");
  });

  test("an expression nested past the parser's depth: a located error that says so", () => {
    const dir = scaffold("python", "py-deep");
    writeFileSync(join(dir, "fuzzed", "deep.py"), `x = ${"-".repeat(LONG)}1\n`);
    const r = manifest(dir);
    assertBounded(r, "a deep Python expression");
    assert.equal(r.code, 2, r.shown);
    assert.match(r.stderr, /^fuzzed\/deep\.py:1:1: error: cannot parse the file: \S/m);
  });
});

describe("Go", requires("go"), () => {
  test("go.mod with a long run of blank lines, a long doc comment, deep parentheses, a long string: the manifest, within the bound", () => {
    const dir = scaffold("go", "go");
    // The module line, then a long run of blank lines and no `go` line to find.
    const module = /^module (\S+)/m.exec(readFileSync(join(dir, "go.mod"), "utf8"))![1];
    writeFileSync(join(dir, "go.mod"), `module ${module}\n${"\n".repeat(LONG)}// x`);
    writeFileSync(
      join(dir, "fuzz.go"),
      `package main\n\n// ${" ".repeat(LONG)}x\nvar long = ${JSON.stringify("a".repeat(LONG))}\n\nvar deep = ${"(".repeat(1000)}1${")".repeat(1000)}\n`,
    );
    const r = manifest(dir);
    assertBounded(r, "a Go project of long lines");
    assert.equal(r.code, 0, r.shown);
  });
});
