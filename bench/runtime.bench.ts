/**
 * Issue 2's benchmark: scaffold time per language, and each language runtime's cold start,
 * sequential invoke throughput and resident memory after many invokes, against a minimal
 * hand-written plugin in the same language (each pair measured interleaved; medians).
 * BENCH_LANGS=go (comma-separated) measures some languages only; BENCH_INVOKES,
 * BENCH_INVOKE_ROUNDS, BENCH_COLD_ROUNDS and BENCH_RSS_INVOKES set the counts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { goBuild, goBuildTags, readProject } from "../src/builder/index.js";
import { hostPlatformKey } from "../src/protocol/index.js";
import {
  coldStartMs,
  compileTs,
  fmt,
  interleaved,
  median,
  ratio,
  roundTrips,
  roundTripsMs,
  scaffoldWithCli,
  sideBySide,
  table,
  type Launch,
} from "./lib.js";

const work = mkdtempSync(join(tmpdir(), "executa-bench-runtime-"));
const INVOKES = Number(process.env.BENCH_INVOKES ?? 10_000);
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 15);
const RSS_INVOKES = Number(process.env.BENCH_RSS_INVOKES ?? 100_000);
// Rounds of the throughput pair: a round of 10,000 invokes takes under a second, and the machines
// here are noisy enough that the median of three moved the Python ratio by 0.1.
const INVOKE_ROUNDS = Number(process.env.BENCH_INVOKE_ROUNDS ?? 7);

const MINIMAL = {
  // The TS and Python baselines call the project's own text_stats, so both sides do the same tool work.
  ts: (toolsModule: string) => `import { text_stats } from ${JSON.stringify(toolsModule)};
process.stdin.setEncoding("utf8");
let buf = "";
process.stdin.on("data", (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf("\\n")) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    const req = JSON.parse(line);
    const result = req.method === "describe" ? { name: "minimal", version: "0.1.0", description: "m", tools: [] }
      : { success: true, data: text_stats(req.params.arguments) };
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result }) + "\\n");
  }
});
`,
  python: (module: string) => `import json, sys
from ${module}.tools import text_stats
for line in sys.stdin:
    req = json.loads(line)
    if req["method"] == "describe":
        result = {"name": "minimal", "version": "0.1.0", "description": "m", "tools": []}
    else:
        result = {"success": True, "data": text_stats(**req["params"]["arguments"])}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": result}) + "\\n")
    sys.stdout.flush()
`,
  go: `package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\\n')
		if err != nil {
			return
		}
		var req struct {
			ID     json.RawMessage \`json:"id"\`
			Method string          \`json:"method"\`
			Params struct {
				Arguments struct {
					Text string \`json:"text"\`
				} \`json:"arguments"\`
			} \`json:"params"\`
		}
		if json.Unmarshal(line, &req) != nil {
			continue
		}
		var result any = map[string]any{"name": "minimal", "version": "0.1.0", "description": "m", "tools": []any{}}
		if req.Method != "describe" {
			result = map[string]any{"success": true, "data": map[string]any{"words": len(strings.Fields(req.Params.Arguments.Text))}}
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		out.Write(append(b, '\\n'))
		out.Flush()
	}
}
`,
};

let scaffolds = 0;
function scaffold(lang: string): { dir: string; ms: number } {
  const dir = join(work, `plugin-${lang}-${scaffolds++}`);
  return { dir, ms: scaffoldWithCli(dir, lang) };
}

async function launches(lang: string, dir: string): Promise<{ runtime: Launch; minimal: Launch }> {
  const minimalDir = mkdtempSync(join(work, `minimal-${lang}-`));
  if (lang === "ts") {
    compileTs(dir);
    writeFileSync(join(minimalDir, "minimal.mjs"), MINIMAL.ts(join(dir, "dist", "src", "tools.js")));
    return {
      runtime: { command: process.execPath, args: [join(dir, "dist", "src", "main.js")] },
      minimal: { command: process.execPath, args: [join(minimalDir, "minimal.mjs")] },
    };
  }
  if (lang === "python") {
    writeFileSync(join(minimalDir, "minimal.py"), MINIMAL.python("bench_plugin"));
    return {
      runtime: { command: "python3", args: ["-m", "bench_plugin"], cwd: dir },
      minimal: { command: "python3", args: [join(minimalDir, "minimal.py")], env: { PYTHONPATH: dir } },
    };
  }
  writeFileSync(join(minimalDir, "main.go"), MINIMAL.go);
  writeFileSync(join(minimalDir, "go.mod"), "module minimal\n\ngo 1.21\n");
  // Both as `executa build` builds what ships (CGO off, -trimpath, -s -w): a plain `go build`
  // links the plugin's net/http dynamically against libc, which no released plugin does.
  await goBuild(minimalDir, hostPlatformKey()!, join(minimalDir, "minimal"));
  await goBuild(
    dir,
    hostPlatformKey()!,
    join(dir, "plugin"),
    ["."],
    goBuildTags(readProject(dir).manifest.host_capabilities),
  );
  return {
    runtime: { command: join(dir, "plugin"), args: [] },
    minimal: { command: join(minimalDir, "minimal"), args: [] },
  };
}

const invoke = (i: number) => ({
  jsonrpc: "2.0",
  id: i,
  method: "invoke",
  params: { tool: "text_stats", arguments: { text: "the quick brown fox jumps over the lazy dog" } },
});

const rows: (string | number)[][] = [];
for (const lang of (process.env.BENCH_LANGS ?? "ts,python,go").split(",")) {
  const scaffoldMs = median([1, 2, 3, 4, 5].map(() => scaffold(lang).ms));
  const { dir } = scaffold(lang);
  const { runtime, minimal } = await launches(lang, dir);
  const [coldRuntime, coldMinimal] = await sideBySide(
    COLD_ROUNDS,
    () => coldStartMs(runtime),
    () => coldStartMs(minimal),
  );
  const [tputRuntime, tputMinimal] = await sideBySide(
    INVOKE_ROUNDS,
    () => roundTripsMs(runtime, invoke, INVOKES),
    () => roundTripsMs(minimal, invoke, INVOKES),
  );
  const [memRuntime, memMinimal] = await interleaved(3, [
    () => roundTrips(runtime, invoke, RSS_INVOKES),
    () => roundTrips(minimal, invoke, RSS_INVOKES),
  ]);
  rows.push(
    [lang, "scaffold, no install (ms)", fmt(scaffoldMs), "", "", ""],
    [
      lang,
      "cold start: spawn -> describe (ms)",
      fmt(coldRuntime),
      fmt(coldMinimal),
      ratio(coldRuntime, coldMinimal),
      lang === "go" ? "<= 1.3x" : "<= 1.1x",
    ],
    [
      lang,
      `${INVOKES} sequential invokes (ms)`,
      fmt(tputRuntime),
      fmt(tputMinimal),
      ratio(tputRuntime, tputMinimal),
      "<= 1.1x",
    ],
    [
      lang,
      `RSS after ${RSS_INVOKES} invokes (KiB, VmRSS)`,
      memRuntime!.rss,
      memMinimal!.rss,
      ratio(memRuntime!.rss, memMinimal!.rss),
      "<= 1.3x",
    ],
    [
      lang,
      `peak RSS over ${RSS_INVOKES} invokes (KiB, VmHWM)`,
      memRuntime!.peak,
      memMinimal!.peak,
      ratio(memRuntime!.peak, memMinimal!.peak),
      "",
    ],
  );
}
process.stdout.write(table(["language", "measure", "runtime", "minimal plugin", "ratio", "goal"], rows));
const [load1] = loadavg();
process.stdout.write(`\nload average (1 min) at the end: ${load1!.toFixed(2)}\n`);
