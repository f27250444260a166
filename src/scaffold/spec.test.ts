import assert from "node:assert/strict";
import { test } from "node:test";
import { ExecutaError } from "../common/errors.js";
import { makeSpec, nameProblem, resolveLanguage } from "./spec.js";

test("a good name gives every language's identifier", () => {
  const spec = makeSpec({ lang: "py", name: "word-tools" });
  assert.equal(spec.lang, "python");
  assert.equal(spec.pyModule, "word_tools");
  assert.equal(spec.goModule, "word-tools");
  assert.equal(spec.toolId, "word-tools");
  assert.equal(spec.displayName, "Word Tools");
  assert.equal(spec.license, "MIT");
});

test("names that break npm, Python or Go are refused with the reason", () => {
  const cases: [string, RegExp][] = [
    ["", /empty/],
    ["My-Plugin", /lowercase/],
    ["1plugin", /start with a lowercase letter/],
    ["my--plugin", /single/],
    ["my plugin", /lowercase letters, digits/],
    ["http", /reserved on npm/],
    ["import", /Python keyword/],
    ["json", /shadow Python's standard library/],
    ["a".repeat(65), /longer than 64/],
  ];
  for (const [name, why] of cases) assert.match(nameProblem(name) ?? "", why, name);
  assert.equal(nameProblem("my-plugin2"), undefined);
});

test("an unknown language lists the valid ones, never falls back", () => {
  assert.throws(() => resolveLanguage("rust"), (e: ExecutaError) => e.exitCode === 2 && /ts, python, go/.test(e.hint ?? ""));
  assert.equal(resolveLanguage("TypeScript"), "ts");
  assert.equal(resolveLanguage("golang"), "go");
});

test("bad tool ids, Go module paths and licenses are usage errors", () => {
  assert.throws(() => makeSpec({ lang: "ts", name: "ok", toolId: "Bad Id" }), /invalid tool id/);
  assert.throws(() => makeSpec({ lang: "go", name: "ok", goModule: "Github.com/x y" }), /invalid Go module path/);
  assert.throws(() => makeSpec({ lang: "go", name: "ok", license: "MIT; rm -rf" }), /invalid license/);
  assert.equal(makeSpec({ lang: "go", name: "ok", goModule: "github.com/acme/ok", license: "Apache-2.0 OR MIT" }).goModule, "github.com/acme/ok");
});
