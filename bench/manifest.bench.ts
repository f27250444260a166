/**
 * `executa manifest` on generated 50-tool projects, side by side with the baseline of each language:
 * TS against `tsc --noEmit` on the same project; Python and Go extraction against the bare
 * interpreter / toolchain start-up (`python3 -c pass`, `go version`).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { which } from "../src/common/exec.js";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "../src/common/package-info.js";
import { goHelperBinary } from "../src/manifest/go/index.js";
import { PYTHON_HELPER } from "../src/manifest/python/index.js";
import { fmt, ratio, sideBySide, table } from "./lib.js";

const TOOLS = 50;
const ROUNDS = 5;
const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");

function timed(command: string, args: string[], cwd: string): () => Promise<number> {
  return async () => {
    const start = performance.now();
    const r = spawnSync(command, args, { cwd, encoding: "utf8" });
    const ms = performance.now() - start;
    if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
    return ms;
  };
}

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "executa-bench-manifest-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const executaJson = (type: string) =>
  JSON.stringify({
    tool_id: "tool-bench",
    type,
    version: "1.0.0",
    display_name: "Bench",
    description: "Benchmark plugin.",
  });

function tsProject(): string {
  let src = `import type { Integer, ToolContext } from "./executa/index.js";\n`;
  for (let i = 0; i < TOOLS; i++) {
    src += `
export interface Args${i} {
  /** The text. */
  text: string;
  /** How many. */
  count?: Integer;
  /** The mode. */
  mode?: "fast" | "slow" | "auto";
  /** Tags. */
  tags?: string[];
  /** Ratio. */
  ratio?: number;
}

/**
 * Tool number ${i}.
 * @tool
 * @timeout 30
 */
export async function tool_${i}({ text, count = 3, mode = "fast" }: Args${i}, ctx: ToolContext): Promise<string> {
  return text.repeat(count) + mode + ctx.tool;
}
`;
  }
  const dir = project({
    "executa.json": executaJson("node"),
    "package.json": JSON.stringify({ name: "bench", version: "1.0.0", type: "module" }),
    "src/tools.ts": src,
  });
  cpSync(join(TEMPLATES_DIR, "ts", "tsconfig.json"), join(dir, "tsconfig.json"));
  cpSync(join(TEMPLATES_DIR, "ts", "src", "executa"), join(dir, "src", "executa"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  symlinkSync(join(PACKAGE_ROOT, "node_modules", "typescript"), join(dir, "node_modules", "typescript"));
  symlinkSync(join(PACKAGE_ROOT, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      ...JSON.parse(spawnSync("cat", [join(dir, "tsconfig.json")], { encoding: "utf8" }).stdout),
      include: ["src"],
    }),
  );
  // The bindings file the project imports, so that tsc checks a complete project.
  spawnSync(process.execPath, [EXECUTA, "manifest"], { cwd: dir });
  return dir;
}

function pythonProject(): string {
  let src = "from typing import Literal, Optional\n\nfrom .executa import tool, ToolContext\n";
  for (let i = 0; i < TOOLS; i++) {
    src += `

@tool(timeout=30)
def tool_${i}(text: str, count: int = 3, mode: Literal["fast", "slow", "auto"] = "fast", tags: Optional[list[str]] = None, ratio: float = 0.5, *, ctx: ToolContext) -> str:
    """Tool number ${i}.

    Args:
        text: The text.
        count: How many.
        mode: The mode.
        tags: Tags.
        ratio: Ratio.
    """
    return text * count
`;
  }
  return project({
    "executa.json": executaJson("python"),
    "pyproject.toml": '[project]\nname = "bench"\nversion = "1.0.0"\n',
    "bench/__init__.py": "",
    "bench/executa/__init__.py": "def tool(fn=None, **kw):\n    return fn\n\n\nclass ToolContext:\n    pass\n",
    "bench/tools.py": src,
  });
}

function goProject(): string {
  let src =
    'package main\n\nimport "context"\n\n// Mode is how fast.\ntype Mode string\n\nconst (\n\tModeFast Mode = "fast"\n\tModeSlow Mode = "slow"\n)\n';
  for (let i = 0; i < TOOLS; i++) {
    src += `
// Args${i} are the parameters of tool_${i}.
type Args${i} struct {
	// The text.
	Text string \`json:"text"\`
	// How many.
	Count int \`json:"count,omitempty" default:"3"\`
	// The mode.
	Mode Mode \`json:"mode,omitempty" default:"fast"\`
	// Tags.
	Tags []string \`json:"tags,omitempty"\`
	// Ratio.
	Ratio float64 \`json:"ratio,omitempty"\`
}

// Tool number ${i}.
//
//executa:tool name=tool_${i} timeout=30
func Tool${i}(ctx context.Context, args Args${i}) (string, error) { return args.Text, nil }
`;
  }
  return project({
    "executa.json": executaJson("go"),
    "go.mod": "module example.com/bench\n\ngo 1.21\n",
    "tools.go": src,
  });
}

const rows: (string | number)[][] = [];

const ts = tsProject();
const tsc = join(ts, "node_modules", "typescript", "bin", "tsc");
const [manifestTs, tscMs] = await sideBySide(
  ROUNDS,
  timed(process.execPath, [EXECUTA, "manifest", "--check"], ts),
  timed(process.execPath, [tsc, "--noEmit", "-p", "."], ts),
);
rows.push([
  `TypeScript, ${TOOLS} tools`,
  "`executa manifest --check`",
  fmt(manifestTs),
  "`tsc --noEmit`",
  fmt(tscMs),
  ratio(manifestTs, tscMs),
  "<= 1.30x",
]);

if (which("python3")) {
  const py = pythonProject();
  const [helper, bare] = await sideBySide(
    ROUNDS,
    timed("python3", [PYTHON_HELPER, py], py),
    timed("python3", ["-c", "pass"], py),
  );
  rows.push([
    `Python, ${TOOLS} tools`,
    "extractor helper",
    fmt(helper),
    "`python3 -c pass`",
    fmt(bare),
    ratio(helper, bare),
    "",
  ]);
  const [full] = await sideBySide(ROUNDS, timed(process.execPath, [EXECUTA, "manifest"], py), async () => 0);
  rows.push([
    `Python, ${TOOLS} tools`,
    "`executa manifest` (whole command)",
    fmt(full),
    "`python3 -c pass`",
    fmt(bare),
    ratio(full, bare),
    "",
  ]);
} else rows.push(["Python", "skipped: python3 is not installed", "", "", "", "", ""]);

if (which("go")) {
  const go = goProject();
  const helper = await goHelperBinary("go"); // built into the cache once
  const [extract, bare] = await sideBySide(
    ROUNDS,
    timed(helper, [go, "example.com/bench"], go),
    timed("go", ["version"], go),
  );
  rows.push([
    `Go, ${TOOLS} tools`,
    "extractor helper (cached build)",
    fmt(extract),
    "`go version`",
    fmt(bare),
    ratio(extract, bare),
    "",
  ]);
  const [full] = await sideBySide(ROUNDS, timed(process.execPath, [EXECUTA, "manifest"], go), async () => 0);
  rows.push([
    `Go, ${TOOLS} tools`,
    "`executa manifest` (whole command)",
    fmt(full),
    "`go version`",
    fmt(bare),
    ratio(full, bare),
    "",
  ]);
} else rows.push(["Go", "skipped: go is not installed", "", "", "", "", ""]);

process.stdout.write(table(["project", "executa", "ms (median of 5)", "baseline", "ms", "ratio", "goal"], rows));
