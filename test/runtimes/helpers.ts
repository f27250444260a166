/**
 * The runtimes' own suites: each language's test-only plugin (its runtime from templates/, the
 * test tools of test-plugin.json), built or copied into a temporary folder, and the vector file
 * played against it.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadVectors, runVectors, type VectorResult } from "../../src/conform/vectors.js";
import type { LaunchSpec } from "../../src/host/index.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const TEMPLATES = join(REPO, "templates");
export const TEST_MANIFEST = join(REPO, "test", "runtimes", "test-plugin.json");
export const VECTORS = join(REPO, "docs", "runtime-vectors.jsonl");

/** The TypeScript test plugin, compiled by the repository's build. */
export function tsPlugin(): LaunchSpec {
  return {
    command: process.execPath,
    args: [join(REPO, "dist", "test", "runtimes", "ts", "plugin.js"), TEST_MANIFEST],
  };
}

/** The Python test plugin, with a copy of the template's runtime as the package `executa` (no bytecode is written). */
export function pythonPlugin(): LaunchSpec {
  const root = mkdtempSync(join(tmpdir(), "executa-py-runtime-"));
  cpSync(join(TEMPLATES, "python", "__pyModule__", "executa"), join(root, "executa"), { recursive: true });
  return {
    command: "python3",
    args: [join(REPO, "test", "runtimes", "python", "plugin.py"), TEST_MANIFEST],
    env: { ...process.env, PYTHONPATH: root, PYTHONDONTWRITEBYTECODE: "1" },
  };
}

/** A Go module in a temporary folder: the template's runtime as internal/executa, plus `extra` (path -> source folder). */
export function goModule(extra: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "executa-go-runtime-"));
  writeFileSync(join(root, "go.mod"), "module executa.test/runtime\n\ngo 1.21\n");
  const runtime = join(TEMPLATES, "go", "internal", "executa");
  cpSync(runtime, join(root, "internal", "executa"), {
    recursive: true,
    filter: (src) => !src.endsWith(".hbs") && !src.endsWith("_test.go"),
  });
  for (const [to, from] of Object.entries(extra)) {
    mkdirSync(join(root, to), { recursive: true });
    for (const file of readdirSync(from)) cpSync(join(from, file), join(root, to, file));
  }
  return root;
}

/** The Go test plugin, built. */
export function goPlugin(): LaunchSpec {
  const root = goModule({ "cmd/plugin": join(REPO, "test", "runtimes", "go", "plugin") });
  const binary = join(root, process.platform === "win32" ? "plugin.exe" : "plugin");
  execFileSync("go", ["build", "-o", binary, "./cmd/plugin"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  return { command: binary, args: [TEST_MANIFEST] };
}

/** Plays every vector (four at a time, shareable ones on shared plugins), then reports one test per vector. */
export function vectorSuite(
  language: string,
  launch: () => LaunchSpec,
  options: { skip?: string; signal?: AbortSignal } = {},
): void {
  const only = process.env.EXECUTA_VECTORS?.split(",");
  const vectors = loadVectors(VECTORS).filter(
    (v) => (!only || only.some((o) => v.id.startsWith(o))) && !(v.posix && process.platform === "win32"),
  );
  const manifest = JSON.parse(readFileSync(TEST_MANIFEST, "utf8")) as unknown;
  describe(`${language} runtime: the vectors`, options, () => {
    let results = new Map<string, VectorResult>();
    before(async () => {
      results = await runVectors(vectors, launch(), {
        manifest,
        timeScale: Number(process.env.EXECUTA_TIME_SCALE ?? 1),
        concurrency: 4,
      });
    });
    for (const vector of vectors) {
      test(`${vector.id}: ${vector.title}`, () => {
        const result = results.get(vector.id);
        if (!result?.ok) throw new Error(result?.failure ?? "not run");
      });
    }
  });
}
