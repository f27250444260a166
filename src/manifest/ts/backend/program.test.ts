import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { createProgram } from "./program.js";

function libraries(tsconfig: object | undefined): string[] {
  const dir = mkdtempSync(join(tmpdir(), "executa-program-"));
  try {
    if (tsconfig) writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    writeFileSync(join(dir, "tools.ts"), "export const x: Array<Record<string, number>> = [];\n");
    const program = createProgram(dir, [join(dir, "tools.ts")]);
    assert.deepEqual(program.getSemanticDiagnostics(), []);
    return program
      .getSourceFiles()
      .map((f) => basename(f.fileName))
      .filter((name) => name.startsWith("lib."));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("without a lib of the project's, the target's library is read without the DOM's", () => {
  for (const [target, root] of [
    ["ES2022", "lib.es2022.d.ts"],
    ["ES2015", "lib.es2015.d.ts"],
    ["ES5", "lib.es5.d.ts"],
  ] as const) {
    const libs = libraries({ compilerOptions: { target } });
    assert.ok(libs.includes(root), `${target}: ${libs.join(" ")}`);
    assert.ok(!libs.some((l) => l.startsWith("lib.dom")), `${target}: ${libs.join(" ")}`);
  }
  assert.ok(!libraries(undefined).some((l) => l.startsWith("lib.dom")));
});

test("a lib the project names is kept, the DOM's included", () => {
  assert.ok(libraries({ compilerOptions: { target: "ES2022", lib: ["ES2022", "DOM"] } }).includes("lib.dom.d.ts"));
});
