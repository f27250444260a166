/**
 * Issue 8 §5: `executa manifest` on projects we did not generate. A project without tools, with a
 * syntax error or with a file that is not UTF-8 gets a located error and exit 2, in Python,
 * TypeScript and Go; `--from-plugin` keeps the plugin's own error line, fills a missing name, and
 * reads a file-transport answer only by the host's safe rules.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { executaJson, tsProject, writeProject } from "./helpers.js";
import { requires } from "../support/requires.js";

const BIN = join(PACKAGE_ROOT, "bin", "executa.js");

function manifest(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "manifest", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exit 2, the located error first, and nothing a user should never see. */
function assertLocated(dir: string, where: RegExp) {
  const r = manifest(dir);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr.split("\n")[0]!, where);
  assert.doesNotMatch(r.stderr, /TypeError|unexpected failure|Traceback|this is a bug/);
  const json = manifest(dir, "--json");
  assert.equal(json.code, 2);
  const out = JSON.parse(json.stdout) as {
    status: string;
    diagnostics: { severity: string; file?: string; line?: number }[];
  };
  assert.equal(out.status, "error");
  assert.ok(
    out.diagnostics.some((d) => d.severity === "error" && d.file && d.line),
    json.stdout,
  );
  assert.equal(existsSync(join(dir, "manifest.json")), false);
}

const py = (files: Record<string, string>) =>
  writeProject({
    "executa.json": executaJson("python"),
    "pyproject.toml":
      '[project]\nname = "weather"\nversion = "1.0.0"\n[project.scripts]\nweather = "weather.main:main"\n',
    "weather/__init__.py": "",
    ...files,
  });

describe("Python projects we did not generate", requires("python3"), () => {
  it("no @tool anywhere: a located error that says what to add", () => {
    const dir = py({ "weather/main.py": "def forecast(city: str) -> str:\n    return city\n" });
    assertLocated(
      dir,
      /^weather\/__init__\.py:1:1: error: no function is decorated with @tool \(read: weather\/__init__\.py, weather\/main\.py\)/,
    );
  });

  it("a syntax error is reported where it is", () => {
    const dir = py({
      "weather/main.py": "from .executa import tool\n\n@tool\ndef forecast(city: str) -> str:\n    return city +\n",
    });
    assertLocated(dir, /^weather\/main\.py:5:\d+: error: syntax error: invalid syntax/);
  });

  it("a file that is not UTF-8 is reported at its first bad byte", () => {
    const dir = writeProject({
      "executa.json": executaJson("python"),
      "pyproject.toml": '[project]\nname = "weather"\nversion = "1.0.0"\n',
      "weather/__init__.py": "",
    });
    writeFileSync(
      join(dir, "weather", "main.py"),
      Buffer.from('@tool\ndef forecast(city: str) -> str:\n    """M\xe9t\xe9o."""\n    return city\n', "latin1"),
    );
    assertLocated(dir, /^weather\/main\.py:3:9: error: the file is not UTF-8: byte 0xe9 cannot be decoded/);
  });
});

describe("TypeScript projects we did not generate", () => {
  it("no @tool anywhere", () => {
    assertLocated(
      tsProject({ "src/tools.ts": "export function add(a: number): number { return a; }\n" }),
      /^src:1:1: error: no exported function has a @tool JSDoc tag/,
    );
  });

  it("a syntax error is reported where it is, and no manifest is guessed from the rest", () => {
    assertLocated(
      tsProject({
        "src/tools.ts": "/**\n * Add.\n * @tool\n */\nexport function add(a: number): number { return a +; }\n",
      }),
      /^src\/tools\.ts:5:\d+: error: syntax error: Expression expected/,
    );
  });

  it("a file that is not UTF-8 is reported at its first bad byte", () => {
    const dir = tsProject({});
    writeFileSync(
      join(dir, "src", "tools.ts"),
      Buffer.from(
        "/**\n * Add \xe0 la main.\n * @tool\n */\nexport function add(a: number): number { return a; }\n",
        "latin1",
      ),
    );
    assertLocated(dir, /^src\/tools\.ts:2:8: error: the file is not UTF-8: byte 0xe0 cannot be decoded/);
  });
});

describe("Go projects we did not generate", requires("go"), () => {
  const go = (source: string | Buffer) => {
    const dir = writeProject({
      "executa.json": executaJson("go"),
      "go.mod": "module example.com/weather\n\ngo 1.21\n",
    });
    writeFileSync(join(dir, "main.go"), source);
    return dir;
  };

  it("no //executa:tool anywhere", () => {
    assertLocated(
      go("package main\n\nfunc main() {}\n"),
      /^main\.go:1:1: error: no function has a \/\/executa:tool directive \(read: main\.go\)/,
    );
  });

  it("a syntax error is reported at the parser's own position", () => {
    assertLocated(go("package main\n\nfunc main() { x := 1 +, }\n"), /^main\.go:3:\d+: error: expected operand/);
  });

  it("a file that is not UTF-8", () => {
    assertLocated(
      go(Buffer.from("package main\n\n// M\xe9t\xe9o.\nfunc main() {}\n", "latin1")),
      /^main\.go:3:\d+: error: illegal UTF-8 encoding/,
    );
  });
});

describe("--from-plugin on plugins we did not write", () => {
  const plugin = (body: string) => {
    const dir = writeProject({ "executa.json": JSON.stringify({ tool_id: "tool-weather-1a2b3c4d", type: "node" }) });
    writeFileSync(join(dir, "plugin.mjs"), body);
    return dir;
  };
  const answering = (result: string, extra = "") => `import { createInterface } from "node:readline";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
${extra}
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  if (req.method === "describe") ${result}
});
`;
  const MANIFEST = {
    version: "1.0.0",
    description: "Weather.",
    display_name: "Weather",
    tools: [{ name: "forecast", description: "Forecast.", parameters: [] }],
  };

  it("a crash keeps the plugin's real error line in the hint", () => {
    const dir = plugin(`console.error("starting");\nthrow new TypeError("config.region is undefined");\n`);
    const r = manifest(dir, "--from-plugin", "--", process.execPath, "plugin.mjs");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /executa: error: .*plugin\.mjs exited \(exit code 1\) before answering describe/);
    assert.match(r.stderr, /hint: the plugin said: TypeError: config\.region is undefined/);
  });

  it("a Python traceback's last line is the one kept", requires("python3"), () => {
    const dir = plugin("");
    writeFileSync(join(dir, "plugin.py"), "import json\n\ndef load():\n    return json.loads('{')\n\nload()\n");
    const r = manifest(dir, "--from-plugin", "--", "python3", "plugin.py");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /hint: the plugin said: json\.decoder\.JSONDecodeError: Expecting property name/);
  });

  it("a manifest without a name is filled from --name, else executa.json's tool_id", () => {
    const dir = plugin(
      answering(
        `process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: ${JSON.stringify(MANIFEST)} }) + "\\n");`,
      ),
    );
    const r = manifest(dir, "--from-plugin", "--", process.execPath, "plugin.mjs");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).name, "tool-weather-1a2b3c4d");
    const named = manifest(dir, "--from-plugin", "--name", "weather", "--", process.execPath, "plugin.mjs");
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).name, "weather");
  });

  it("a describe answer by file transport is read from the plugin's temp folder, and a pointer elsewhere is refused", () => {
    const good = plugin(
      answering(
        `{ const path = join(tmpdir(), "executa-resp-describe.json"); writeFileSync(path, JSON.stringify({ jsonrpc: "2.0", id: req.id, result: ${JSON.stringify(MANIFEST)} })); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, __file_transport: path }) + "\\n"); }`,
      ),
    );
    const ok = manifest(good, "--from-plugin", "--", process.execPath, "plugin.mjs");
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(readFileSync(join(good, "manifest.json"), "utf8")).tools[0].name, "forecast");

    const outside = mkdtempSync(join(tmpdir(), "executa-canary-"));
    const canary = join(outside, "executa-resp-secret.json");
    writeFileSync(canary, JSON.stringify({ jsonrpc: "2.0", id: 1, result: { secret: "xyzzy-canary-content" } }));
    const hostile = plugin(
      answering(
        `process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, __file_transport: ${JSON.stringify(canary)} }) + "\\n");`,
      ),
    );
    const refused = manifest(hostile, "--from-plugin", "--", process.execPath, "plugin.mjs");
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /the host could not accept it: refused: it is not directly inside the plugin's temp folder/,
    );
    assert.doesNotMatch(refused.stderr + refused.stdout, /xyzzy-canary-content/);
    assert.equal(
      readFileSync(canary, "utf8").includes("xyzzy-canary-content"),
      true,
      "the file named by the pointer is left alone",
    );
  });
});
