/**
 * `npm run build` is `tsc -b`, which rebuilds only when one of the program's root files (its
 * `include`) changed: a file the program imports that is not a root would stay stale in dist/.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { REPO_ROOT } from "../e2e/toolchain.js";

/** The root files of tsconfig.json, as tsc -b sees them. */
function rootFiles(): Set<string> {
  const config = ts.readConfigFile(join(REPO_ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  return new Set(parsed.fileNames.map((file) => resolve(file)));
}

/** The repository files a source imports by a relative path (`./x.js` is `./x.ts`), as the compiler reads its imports. */
function relativeImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => /^\.{1,2}\//.test(specifier))
    .map((specifier) => resolve(dirname(file), specifier))
    .map((target) =>
      target.endsWith(".js") && existsSync(target.replace(/\.js$/, ".ts")) ? target.replace(/\.js$/, ".ts") : target,
    )
    .filter((target) => existsSync(target));
}

test("every repository file the build imports is one of tsconfig.json's roots, so tsc -b rebuilds when it changes", () => {
  const roots = rootFiles();
  const missing = new Set<string>();
  const seen = new Set(roots);
  const queue = [...roots];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (!file.endsWith(".ts")) continue;
    for (const target of relativeImports(file)) {
      if (!roots.has(target)) missing.add(relative(REPO_ROOT, target));
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  assert.deepEqual([...missing].sort(), [], "add these to tsconfig.json's include");
});
