import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { candidateOfEntry, findEntryCandidates } from "./candidates.js";
import { goEntryArgs, goFileSet, pythonEntry } from "./entry.js";

const root = mkdtempSync(join(tmpdir(), "executa-candidates-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function folder(files: Record<string, string>): string {
  const dir = join(root, String(n++));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const READS = 'process.stdin.on("data", () => {});\n';
const GO_MAIN = "package main\n\nfunc main() {}\n";

test("Node: package.json bin and main (one candidate per file, with its tool id), else the scripts that read stdin", () => {
  const pkg = folder({
    "package.json": JSON.stringify({
      name: "pkg",
      bin: { tool: "./cli.js" },
      main: "cli.js",
      executa: { tool_id: "tool-acme-pkg" },
    }),
    "cli.js": READS,
    "other.js": READS,
  });
  assert.deepEqual(findEntryCandidates(pkg), [
    { type: "node", entry: "cli.js", source: "package.json bin tool", toolId: "tool-acme-pkg" },
  ]);
  const loose = folder({
    "a.mjs": READS,
    "b.cjs": READS,
    "eslint.config.js": READS,
    "util.js": "module.exports = 1;\n",
    "a.test.mjs": READS,
  });
  assert.deepEqual(
    findEntryCandidates(loose).map((c) => c.entry),
    ["a.mjs", "b.cjs"],
    "config files, tests and files that do not read stdin are left out",
  );
});

test("Python: pyproject scripts (as module:function, named), else packages with __main__.py and scripts reading stdin", () => {
  const project = folder({
    "pyproject.toml": '[project]\nname = "x"\n[project.scripts]\nmy-tool = "my_tool.cli:main"\n',
    "my_tool/__init__.py": "",
    "my_tool/cli.py": "",
  });
  assert.deepEqual(findEntryCandidates(project), [
    { type: "python", entry: "my_tool.cli:main", source: "pyproject.toml script my-tool", toolId: "my-tool" },
  ]);
  const loose = folder({
    "pkg/__main__.py": "",
    "plugin.py": "import sys\nfor line in sys.stdin:\n    pass\n",
    "test_plugin.py": "import sys\nsys.stdin\n",
    "helpers.py": "X = 1\n",
  });
  assert.deepEqual(
    findEntryCandidates(loose).map((c) => c.entry),
    ["pkg", "plugin.py"],
  );
  assert.deepEqual(pythonEntry(loose, "pkg"), { kind: "package", name: "pkg" });
  assert.deepEqual(pythonEntry(loose, "plugin.py"), { kind: "script", file: "plugin.py" });
  assert.deepEqual(pythonEntry(project, "my_tool.cli:main"), { kind: "function", module: "my_tool.cli", func: "main" });
});

test("Go: a module whose programs live in cmd/<name>/ offers each main package there, named after its folder", () => {
  const module = folder({
    "go.mod": "module x\n",
    "cmd/weather/main.go": GO_MAIN,
    "cmd/weather/tools.go": "package main\n",
    "cmd/admin/main.go": GO_MAIN,
    "cmd/lib/lib.go": "package lib\n",
    "internal/x/x.go": "package x\n",
  });
  assert.deepEqual(findEntryCandidates(module), [
    { type: "go", entry: "cmd/admin", source: "go.mod, cmd/admin (a Go main package)", toolId: "admin" },
    { type: "go", entry: "cmd/weather", source: "go.mod, cmd/weather (a Go main package)", toolId: "weather" },
  ]);
  const rootMain = folder({ "go.mod": "module x\n", "main.go": GO_MAIN, "cmd/other/main.go": GO_MAIN });
  assert.deepEqual(
    findEntryCandidates(rootMain).map((c) => c.entry),
    ["."],
    "a main at the root is the plugin",
  );
});

test("Go: one main with go.mod is the package; several are one candidate each, built with the helpers that carry no build constraint", () => {
  const one = folder({ "go.mod": "module x\n", "main.go": GO_MAIN, "util.go": "package main\n" });
  assert.deepEqual(findEntryCandidates(one), [{ type: "go", entry: ".", source: "go.mod (main.go)" }]);
  const several = folder({
    "go.mod": "module x\n",
    "a.go": GO_MAIN,
    "b.go": `// b: the second tool\n${GO_MAIN}`,
    "shared.go": "package main\n\nconst x = 1\n",
    "shared_windows.go": "package main\n",
    "tagged.go": "//go:build linux\n\npackage main\n",
    "shared_test.go": "package main\n",
    "lib.go": "package other\n",
  });
  assert.deepEqual(
    findEntryCandidates(several).map((c) => c.entry),
    ["a.go", "b.go"],
  );
  assert.deepEqual(goFileSet(several, "b.go"), ["b.go", "shared.go"]);
  assert.deepEqual(goEntryArgs(several, "a.go"), ["a.go", "shared.go"]);
  assert.deepEqual(goEntryArgs(several, "cmd/tool"), ["./cmd/tool"]);
});

test("binaries: native executables at the top and in bin/ (not scripts, not files without the executable bit)", () => {
  const dir = folder({ "run.sh": "#!/bin/sh\n" });
  chmodSync(join(dir, "run.sh"), 0o755);
  // An ELF header is all the detection reads.
  const elf = Buffer.alloc(64);
  elf.writeUInt32BE(0x7f454c46, 0);
  elf[5] = 1;
  elf.writeUInt16LE(0x3e, 18);
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin", "tool"), elf, { mode: 0o755 });
  writeFileSync(join(dir, "not-executable"), elf, { mode: 0o644 });
  assert.deepEqual(
    findEntryCandidates(dir).map((c) => [c.type, c.entry, c.source]),
    [["binary", "bin/tool", "a linux-x86_64 executable"]],
  );
  assert.equal(candidateOfEntry(dir, "run.sh").type, "binary", "--entry names any executable");
  assert.throws(() => candidateOfEntry(dir, "nothing.js"), /--entry nothing\.js: no such file/);
});
