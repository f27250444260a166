import assert from "node:assert/strict";
import { test } from "node:test";
import { parseGoMod, parsePyProject } from "./files.js";

test("pyproject.toml: the keys the manifest and the launch need, in TOML's own forms", () => {
  const py = parsePyProject(
    [
      "[build-system]",
      'requires = ["hatchling"]',
      "",
      "[project]",
      'name = "demo"',
      'dependencies = ["python-dateutil>=2.8", "tomli; python_version < \'3.11\'"]',
      'version = "1.2.3"  # comment',
      "description = 'Single quoted'",
      'license = { text = "MIT" }',
      'authors = [{ name = "Ada", email = "a@x" }]',
      "",
      "[project.scripts]",
      'a = "m:f"',
      "'b-c' = 'n:g'",
      "",
      "[tool.x]",
      'version = "9"',
      "",
    ].join("\n"),
  );
  assert.deepEqual(py, {
    name: "demo",
    version: "1.2.3",
    description: "Single quoted",
    license: "MIT",
    author: "Ada",
    scripts: [
      ["a", "m:f"],
      ["b-c", "n:g"],
    ],
    dependencies: ["python-dateutil>=2.8", "tomli; python_version < '3.11'"],
  });
  assert.deepEqual(parsePyProject('[project]\nname = """multi\nline"""\nlicense = "Apache-2.0"\n'), {
    name: "multi\nline",
    version: undefined,
    description: undefined,
    license: "Apache-2.0",
    author: undefined,
    scripts: [],
    dependencies: [],
  });
});

test("pyproject.toml that is not TOML: a located error", () => {
  assert.throws(
    () => parsePyProject('[project]\nname = "x\n', "/p/pyproject.toml"),
    /\/p\/pyproject\.toml:2:\d+: error: not valid TOML/,
  );
});

test("go.mod: the module path and go version", () => {
  assert.deepEqual(parseGoMod("// c\nmodule github.com/acme/x // comment\n\ngo 1.21\n"), {
    module: "github.com/acme/x",
    go: "1.21",
  });
  assert.equal(parseGoMod("go 1.21\n"), undefined);
});
