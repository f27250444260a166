/** The files each helper reads (the same rules as helpers/python and helpers/go), for the precomputed fallback. */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { bindingsFileName, type Language } from "../project/index.js";

/** Mirrors SKIP_DIRS and python_files() in helpers/python/extract_tools.py. */
const PYTHON_SKIP = new Set([
  ".git",
  ".venv",
  "venv",
  "env",
  ".env",
  "node_modules",
  "__pycache__",
  "build",
  "dist",
  "tests",
  "test",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  "site-packages",
  ".eggs",
]);

function pythonFiles(root: string, dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!PYTHON_SKIP.has(e.name) && !e.name.startsWith(".") && !e.name.endsWith(".egg-info"))
        pythonFiles(root, path, out);
    } else if (
      e.name.endsWith(".py") &&
      e.name !== bindingsFileName("python") &&
      !e.name.startsWith("test_") &&
      !e.name.endsWith("_test.py") &&
      e.name !== "conftest.py"
    ) {
      out.push(relative(root, path).split(sep).join("/"));
    }
  }
}

/** Project-relative paths of the files the language's extractor reads, sorted. */
export function extractorInputs(projectDir: string, language: Language): string[] {
  const out: string[] = [];
  if (language === "python") pythonFiles(projectDir, projectDir, out);
  else if (language === "go") {
    for (const e of readdirSync(projectDir, { withFileTypes: true })) {
      if (e.isFile() && e.name.endsWith(".go") && !e.name.endsWith("_test.go") && e.name !== bindingsFileName("go"))
        out.push(e.name);
    }
  }
  return out.sort();
}
