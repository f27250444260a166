import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { detectLaunch } from "./launch.js";

const project = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), "executa-launch-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
};

describe("detectLaunch", () => {
  it("uses executa.json command first", async () => {
    const dir = project({
      "executa.json": JSON.stringify({ type: "python", command: ["python3", "-m", "x"] }),
      "go.mod": "module x",
    });
    const l = await detectLaunch(dir);
    assert.deepEqual([l.command, ...l.args], ["python3", "-m", "x"]);
    assert.equal(l.cwd, dir);
  });

  it("without a command, starts executa.json's entry the way its type does (and refuses one outside the folder)", async () => {
    const node = project({ "executa.json": JSON.stringify({ type: "node", entry: "plugin.mjs" }), "plugin.mjs": "" });
    assert.deepEqual(await detectLaunch(node).then((l) => [l.command, ...l.args]), [
      process.execPath,
      join(node, "plugin.mjs"),
    ]);
    const go = project({
      "executa.json": JSON.stringify({ type: "go", entry: "b.go" }),
      "go.mod": "module x",
      "a.go": "package main\n\nfunc main() {}\n",
      "b.go": "package main\n\nfunc main() {}\n",
      "util.go": "package main\n",
    });
    assert.deepEqual(await detectLaunch(go).then((l) => [l.command, ...l.args]), ["go", "run", "b.go", "util.go"]);
    const pkg = project({ "executa.json": JSON.stringify({ type: "python", entry: "tool" }), "tool/__main__.py": "" });
    assert.deepEqual(await detectLaunch(pkg).then((l) => l.args), ["-m", "tool"]);
    const bin = project({ "executa.json": JSON.stringify({ type: "binary", entry: "tools/run" }), "tools/run": "" });
    assert.deepEqual(await detectLaunch(bin).then((l) => [l.command, l.language]), [
      join(bin, "tools", "run"),
      "binary",
    ]);
    const outside = project({ "executa.json": JSON.stringify({ type: "node", entry: "../plugin.js" }) });
    await assert.rejects(detectLaunch(outside), /entry "\.\.\/plugin\.js" is outside the plugin folder/);
  });

  it("follows executa.json type node to package.json bin[tool_id]", async () => {
    const dir = project({
      "executa.json": JSON.stringify({ type: "node", tool_id: "tool-b" }),
      "package.json": JSON.stringify({ bin: { a: "a.js", "tool-b": "b.js" } }),
      "a.js": "",
      "b.js": "",
    });
    const l = await detectLaunch(dir);
    assert.equal(l.command, process.execPath);
    assert.deepEqual(l.args, [join(dir, "b.js")]);
    assert.match(l.source, /executa\.json \(type node\): package\.json bin tool-b/);
  });

  it("runs a TypeScript project from src/main.ts (compiled fresh), never from compiled output that may be stale or missing", async () => {
    const dir = project({ "package.json": JSON.stringify({ bin: "dist/src/main.js" }), "src/main.ts": "" });
    const l = await detectLaunch(dir);
    assert.equal(l.tsEntry, join(dir, "src", "main.ts"));
    assert.equal(l.language, "ts");
  });

  it("says what is missing when the node entry does not exist", async () => {
    const dir = project({ "package.json": JSON.stringify({ bin: "dist/main.js" }) });
    await assert.rejects(
      detectLaunch(dir),
      (e: Error & { hint?: string }) =>
        /dist\/main\.js \(package\.json bin\) does not exist/.test(e.message) &&
        /build the project first/.test(e.hint ?? ""),
    );
  });

  it("runs a pyproject script through python3 with the project on sys.path", async () => {
    const dir = project({
      "pyproject.toml": '[project]\nname = "p"\n\n[project.scripts]\np-tool = "p_tool.__main__:main"  # entry\n',
    });
    const l = await detectLaunch(dir);
    assert.equal(l.language, "python");
    assert.ok(l.args.join(" ").includes('importlib.import_module("p_tool.__main__")'), l.args.join(" "));
    assert.ok(l.args.join(" ").includes('for name in ["main"]'), l.args.join(" "));
  });

  it("prefers the project's .venv script", async () => {
    const dir = project({
      "pyproject.toml": '[project.scripts]\n"p-tool" = "m:main"\n',
      ".venv/bin/p-tool": "#!/bin/sh\n",
      ".venv/bin/python": "",
    });
    chmodSync(join(dir, ".venv/bin/p-tool"), 0o755);
    assert.equal((await detectLaunch(dir)).command, join(dir, ".venv/bin/p-tool"));
  });

  it("uses go run . for go.mod and bin/<dirname> for a binary", async () => {
    assert.deepEqual((await detectLaunch(project({ "go.mod": "module x\n" }))).args, ["run", "."]);
    const dir = project({});
    const name = dir.split("/").pop()!;
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", name), "#!/bin/sh\n");
    chmodSync(join(dir, "bin", name), 0o755);
    assert.equal((await detectLaunch(dir)).command, join(dir, "bin", name));
  });

  it("explains what it looked for when nothing fits", async () => {
    await assert.rejects(detectLaunch(project({ "README.md": "" })), /no plugin found/);
    await assert.rejects(
      detectLaunch(project({ "executa.json": JSON.stringify({ type: "go" }) })),
      /type "go" but .* has no go\.mod/,
    );
  });
});
