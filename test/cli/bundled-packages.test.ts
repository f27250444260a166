/**
 * What installing the package brings: the command lines in dist/cli load at run time only the
 * packages of `dependencies` (and Node's own modules); no package bundled into them is also a
 * dependency, and each is named in dist/cli/THIRD-PARTY-NOTICES.md with its licence.
 */
import assert from "node:assert/strict";
import { builtinModules } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "../e2e/toolchain.js";

const CLI = join(REPO_ROOT, "dist", "cli");
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const notices = readFileSync(join(CLI, "THIRD-PARTY-NOTICES.md"), "utf8");
const code = readdirSync(CLI)
  .filter((f) => f.endsWith(".js"))
  .map((f) => readFileSync(join(CLI, f), "utf8"))
  .join("\n");

/** The package a bare specifier names: `ajv/dist/x` is ajv, `@scope/name/x` is @scope/name. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

test("the command lines load at run time only dependencies and Node's own modules", () => {
  const loaded = new Set<string>();
  for (const [, specifier] of code.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|require\d*\s*\(\s*|\)\s*\(\s*)"([^"./][^"]*)"/g,
  ))
    loaded.add(packageOf(specifier!));
  const builtins = new Set(builtinModules);
  const outside = [...loaded].filter((name) => !name.startsWith("node:") && !builtins.has(name));
  for (const name of ["typescript", "postject", "esbuild"])
    assert.ok(outside.includes(name), `the scan finds ${name}, which is loaded at run time: ${outside}`);
  // ajv's code generator names its run-time helpers in strings it never runs here.
  assert.deepEqual(
    outside.filter((name) => !(name in pkg.dependencies) && name !== "ajv"),
    [],
    "loaded at run time, so they belong in dependencies",
  );
});

test("no bundled package is also a dependency; each is named in the notices, with its licence text", () => {
  const bundled = [...notices.matchAll(/^## (\S+)@(\S+) \(.+\)$/gm)].map(([, name, version]) => ({
    name: name!,
    version: version!,
  }));
  for (const direct of ["yargs", "handlebars", "ajv", "prompts", "semver", "smol-toml", "yaml"])
    assert.ok(
      bundled.some((b) => b.name === direct),
      `${direct} is bundled and named`,
    );
  for (const { name, version } of bundled) {
    assert.ok(!(name in pkg.dependencies), `${name} is bundled, so installing it as well is waste`);
    assert.ok(code.includes(`node_modules/${name}/`), `${name} is named in the notices but not bundled`);
    const installed = JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", name, "package.json"), "utf8"));
    if (name in pkg.devDependencies) assert.equal(installed.version, version, name);
  }
  const sections = notices.split(/^## /m).slice(1);
  assert.equal(sections.length, bundled.length);
  for (const section of sections) assert.match(section, /```\n[\s\S]*(Permission|Redistribution)[\s\S]*```/);
});
