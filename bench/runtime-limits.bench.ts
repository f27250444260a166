/**
 * Issue 9's benchmark: what each language runtime costs in memory and how it takes a crowd, on
 * the runtimes' test-only plugins (test/runtimes): RSS after 100,000 sequential invokes (beside a
 * minimal hand-written plugin doing the same), peak RSS when the host stops reading stdout while
 * 800 answers of 400 KiB are asked for (320 MiB in all; under the 512 KiB of file transport, so
 * they must wait in the plugin), and the wall time of 1,000 concurrent invokes that each sleep
 * 200 ms.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goPlugin, pythonPlugin, tsPlugin } from "../test/runtimes/helpers.js";
import { fmt, LinePlugin, ratio, table, type Launch } from "./lib.js";

const INVOKES = Number(process.env.BENCH_RSS_INVOKES ?? 100_000);
const STALLED_ANSWERS = 800;
const STALLED_ANSWER_BYTES = 400 * 1024;
const CONCURRENT = 1000;
const work = mkdtempSync(join(tmpdir(), "executa-bench-limits-"));

/** The minimal plugin per language: echoes `{success, data: arguments}` for every invoke, nothing else. */
const MINIMAL: Record<string, () => Launch> = {
  ts: () => {
    const file = join(work, "minimal.mjs");
    writeFileSync(
      file,
      `import { createInterface } from "node:readline";
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const req = JSON.parse(line);
  const result = req.method === "describe" ? { name: "minimal", version: "0.1.0", description: "m", tools: [] } : { success: true, data: req.params.arguments };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result }) + "\\n");
});
`,
    );
    return { command: process.execPath, args: [file] };
  },
  python: () => {
    const file = join(work, "minimal.py");
    writeFileSync(
      file,
      `import json, sys
for line in sys.stdin:
    req = json.loads(line)
    result = {"name": "minimal", "version": "0.1.0", "description": "m", "tools": []} if req["method"] == "describe" else {"success": True, "data": req["params"]["arguments"]}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": result}) + "\\n")
    sys.stdout.flush()
`,
    );
    return { command: "python3", args: [file] };
  },
  go: () => {
    const dir = mkdtempSync(join(work, "minimal-go-"));
    writeFileSync(join(dir, "go.mod"), "module minimal\n\ngo 1.21\n");
    writeFileSync(
      join(dir, "main.go"),
      `package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage \`json:"id"\`
			Method string          \`json:"method"\`
			Params struct {
				Arguments json.RawMessage \`json:"arguments"\`
			} \`json:"params"\`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil {
			continue
		}
		var result any = map[string]any{"name": "minimal", "version": "0.1.0", "description": "m", "tools": []any{}}
		if req.Method != "describe" {
			result = map[string]any{"success": true, "data": req.Params.Arguments}
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		out.Write(append(b, '\\n'))
		out.Flush()
	}
}
`,
    );
    const binary = join(dir, "minimal");
    const built = spawnSync("go", ["build", "-o", binary, "."], { cwd: dir, stdio: "inherit" });
    if (built.status !== 0) throw new Error("go build of the minimal plugin failed");
    return { command: binary, args: [] };
  },
};

const RUNTIMES: Record<string, () => Launch> = { ts: tsPlugin, python: pythonPlugin, go: goPlugin };

/** VmRSS or VmHWM (peak) of a process, in MiB (Linux). */
function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const invoke = (id: number, tool: string, args: object) => ({
  jsonrpc: "2.0",
  id,
  method: "invoke",
  params: { tool, arguments: args },
});

/** RSS after `INVOKES` sequential invokes of `echo`. */
async function rssAfterInvokes(launch: Launch): Promise<number> {
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 0, method: "describe" });
  await plugin.next();
  for (let i = 1; i <= INVOKES; i++) {
    plugin.send(invoke(i, "echo", { s: "the quick brown fox jumps over the lazy dog" }));
    const line = await plugin.next();
    if (i === 1 && !JSON.parse(line).result?.success) throw new Error(`invoke failed: ${line}`);
  }
  const rss = rssMb(plugin.child.pid!, "VmRSS");
  await plugin.close();
  return rss;
}

/** Peak RSS while the host asks for 800 answers of 400 KiB and reads none of them for 3 s. */
async function rssStalled(launch: Launch): Promise<number> {
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 0, method: "describe" });
  await plugin.next();
  plugin.child.stdout.pause();
  for (let i = 1; i <= STALLED_ANSWERS; i++) plugin.send(invoke(i, "big", { bytes: STALLED_ANSWER_BYTES }));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const peak = rssMb(plugin.child.pid!, "VmHWM");
  plugin.child.stdin.on("error", () => undefined); // the requests it never read
  plugin.child.kill("SIGKILL");
  return peak;
}

/** Milliseconds until 1,000 concurrent `slow` invokes of 200 ms are all answered. */
async function concurrentMs(launch: Launch): Promise<number> {
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 0, method: "describe" });
  await plugin.next();
  const start = performance.now();
  for (let i = 1; i <= CONCURRENT; i++) plugin.send(invoke(i, "slow", { ms: 200 }));
  for (let i = 1; i <= CONCURRENT; i++) {
    const line = await plugin.next();
    if (!JSON.parse(line).result?.success) throw new Error(`slow failed: ${line}`);
  }
  const elapsed = performance.now() - start;
  await plugin.close();
  return elapsed;
}

const rows: (string | number)[][] = [];
for (const lang of (process.env.BENCH_LANGS ?? "ts,python,go").split(",")) {
  const runtime = RUNTIMES[lang]!() as Launch;
  const minimal = MINIMAL[lang]!();
  const [rssRuntime, rssMinimal] = [await rssAfterInvokes(runtime), await rssAfterInvokes(minimal)];
  rows.push(
    [
      lang,
      `RSS after ${INVOKES.toLocaleString("en")} invokes (MiB)`,
      fmt(rssRuntime),
      fmt(rssMinimal),
      ratio(rssRuntime, rssMinimal),
      "",
    ],
    [
      lang,
      `peak RSS, host not reading, ${STALLED_ANSWERS} x 400 KiB asked (MiB)`,
      fmt(await rssStalled(runtime)),
      "",
      "",
      "< 300",
    ],
    [
      lang,
      `${CONCURRENT.toLocaleString("en")} concurrent invokes sleeping 200 ms (ms)`,
      fmt(await concurrentMs(runtime)),
      "",
      "",
      "< 1500",
    ],
  );
}
process.stdout.write(table(["language", "measure", "runtime", "minimal plugin", "ratio", "goal"], rows));
