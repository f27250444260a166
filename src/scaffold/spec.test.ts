import assert from "node:assert/strict";
import { test } from "node:test";
import type { ExecutaError } from "../common/errors.js";
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
    ["a".repeat(65), /longer than 64/],
  ];
  for (const [name, why] of cases)
    for (const lang of [undefined, "ts", "python", "go"] as const)
      assert.match(nameProblem(name, lang) ?? "", why, `${name} ${lang}`);
  assert.equal(nameProblem("my-plugin2", "ts"), undefined);
  assert.match(nameProblem("http", "ts") ?? "", /reserved on npm/);
  assert.match(nameProblem("import", "python") ?? "", /Python keyword/);
  assert.match(nameProblem("json", "python") ?? "", /shadow Python's standard library/);
});

test("a language's name rules apply to its projects only: npm's to TypeScript, Python's to Python", () => {
  assert.equal(nameProblem("http", "go"), undefined, "a Node built-in name is no Go problem");
  assert.equal(nameProblem("os", "go"), undefined);
  assert.equal(nameProblem("json", "ts"), undefined, "a Python standard-library name is no TypeScript problem");
  assert.equal(nameProblem("fs", "python"), undefined, "a Node built-in name is no Python problem");
  assert.match(nameProblem("os", "ts") ?? "", /reserved on npm/);
  assert.match(nameProblem("http", "python") ?? "", /shadow Python's standard library/);
  assert.equal(makeSpec({ lang: "python", name: "fs" }).pyModule, "fs");
  assert.equal(makeSpec({ lang: "go", name: "os", goModule: "example.com/os" }).goModule, "example.com/os");
  assert.equal(
    makeSpec({ lang: "go", name: "http" }).goModule,
    "http",
    "'http' is no standard-library package (net/http is)",
  );
  assert.throws(() => makeSpec({ lang: "ts", name: "http" }), /reserved on npm/);
});

test("a Go module path that is a standard-library package is refused: it would make every import of that package ambiguous", () => {
  assert.throws(
    () => makeSpec({ lang: "go", name: "os" }),
    /invalid Go module path 'os': 'os' is a package of Go's standard library/,
  );
  assert.throws(() => makeSpec({ lang: "go", name: "ok", goModule: "net/http" }), /standard library/);
});

test("an unknown language lists the valid ones, never falls back", () => {
  assert.throws(
    () => resolveLanguage("rust"),
    (e: ExecutaError) => e.exitCode === 2 && /ts, python, go/.test(e.hint ?? ""),
  );
  assert.equal(resolveLanguage("TypeScript"), "ts");
  assert.equal(resolveLanguage("golang"), "go");
});

test("bad tool ids, Go module paths and licenses are usage errors", () => {
  assert.throws(() => makeSpec({ lang: "ts", name: "ok", toolId: "Bad Id" }), /invalid tool id/);
  assert.throws(() => makeSpec({ lang: "go", name: "ok", goModule: "Github.com/x y" }), /invalid Go module path/);
  assert.throws(() => makeSpec({ lang: "go", name: "ok", license: "MIT; rm -rf" }), /invalid license/);
  assert.equal(
    makeSpec({ lang: "go", name: "ok", goModule: "github.com/acme/ok", license: "Apache-2.0 OR MIT" }).goModule,
    "github.com/acme/ok",
  );
});
