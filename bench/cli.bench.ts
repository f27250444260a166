/**
 * How fast the CLI answers, side by side in one run: `executa --version` and `--help` against a
 * bare `node -e 0`; `executa manifest --check` on a scaffolded Go and Python project against its
 * extractor helper alone plus `node -e 0` (what the command cannot avoid).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { which } from "../src/common/exec.js";
import { PACKAGE_ROOT } from "../src/common/package-info.js";
import { goHelperBinary } from "../src/manifest/go/index.js";
import { PYTHON_HELPER } from "../src/manifest/python/index.js";
import { makeSpec, scaffold } from "../src/scaffold/index.js";
import { fmt, median, ratio, table } from "./lib.js";

const ROUNDS = 15;
const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");

function once(command: string, args: string[], cwd?: string): number {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd, encoding: "utf8" });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
  return ms;
}

/** Median of each timing, the timings run round-robin so that machine noise hits all of them alike. */
function medians(runs: Record<string, () => number>): Record<string, number> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (const run of Object.values(runs)) run(); // warm the file cache
  for (let i = 0; i < ROUNDS; i++) for (const [key, run] of Object.entries(runs)) samples[key]!.push(run());
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

const node = () => once(process.execPath, ["-e", "0"]);
const startup = medians({
  node,
  version: () => once(process.execPath, [EXECUTA, "--version"]),
  help: () => once(process.execPath, [EXECUTA, "--help"]),
  verbHelp: () => once(process.execPath, [EXECUTA, "test", "--help"]),
});
const rows: (string | number)[][] = [
  [
    "`executa --version`",
    fmt(startup.version!),
    "`node -e 0`",
    fmt(startup.node!),
    ratio(startup.version!, startup.node!),
    "<= 1.5x",
  ],
  [
    "`executa --help`",
    fmt(startup.help!),
    "`node -e 0`",
    fmt(startup.node!),
    ratio(startup.help!, startup.node!),
    "<= 1.5x",
  ],
  [
    "`executa test --help`",
    fmt(startup.verbHelp!),
    "`node -e 0`",
    fmt(startup.node!),
    ratio(startup.verbHelp!, startup.node!),
    "",
  ],
];

const root = mkdtempSync(join(tmpdir(), "executa-bench-cli-"));
async function project(lang: "go" | "python"): Promise<string> {
  const dir = join(root, `${lang}-plugin`);
  await scaffold({
    targetDir: dir,
    spec: makeSpec({ lang, name: `${lang}-plugin` }),
    install: false,
    git: false,
    quiet: true,
  });
  return dir;
}

if (which("go")) {
  const dir = await project("go");
  const helper = await goHelperBinary("go");
  const t = medians({
    check: () => once(process.execPath, [EXECUTA, "manifest", "--check", dir]),
    floor: () => once(helper, [dir, "go-plugin"]) + node(),
  });
  rows.push([
    "`executa manifest --check` (Go)",
    fmt(t.check!),
    "Go helper + `node -e 0`",
    fmt(t.floor!),
    ratio(t.check!, t.floor!),
    "<= 2x",
  ]);
}
const python = which("python3");
if (python) {
  const dir = await project("python");
  const t = medians({
    check: () => once(process.execPath, [EXECUTA, "manifest", "--check", dir]),
    floor: () => once(python, [PYTHON_HELPER, dir]) + node(),
  });
  rows.push([
    "`executa manifest --check` (Python)",
    fmt(t.check!),
    "Python helper + `node -e 0`",
    fmt(t.floor!),
    ratio(t.check!, t.floor!),
    "<= 2x",
  ]);
}
process.stdout.write(table(["command", "ms", "baseline", "ms", "ratio", "goal"], rows));
