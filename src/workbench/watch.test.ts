import assert from "node:assert/strict";
import { it } from "node:test";
import { isWatchedSource } from "./watch.js";

it("watches sources of the three languages, not build output or dependencies", () => {
  for (const f of ["src/tools.ts", "pkg/tools.py", "main.go", "manifest.json", "go.mod", "pyproject.toml"])
    assert.ok(isWatchedSource(f), f);
  for (const f of [
    "node_modules/x/index.js",
    "dist/src/main.js",
    "pkg/__pycache__/a.py",
    ".git/HEAD",
    "README.md",
    ".venv/lib/a.py",
  ])
    assert.ok(!isWatchedSource(f), f);
});
