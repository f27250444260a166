/**
 * Issue 9's benchmark: what each language runtime costs in memory and how it takes a crowd, on
 * the runtimes' test-only plugins (test/runtimes): peak RSS when the host stops reading stdout while
 * 800 answers of 400 KiB are asked for (320 MiB in all, each inline, so they must wait in the
 * plugin), and the wall time of 1,000 concurrent invokes that each sleep
 * 200 ms. RSS after 100,000 invokes against a hand-written plugin is runtime.bench.ts's row: it
 * runs the templates' runtime on the same tool as the hand-written plugin, where these test plugins
 * carry every test tool and its imports.
 */
import { goPlugin, pythonPlugin, tsPlugin } from "../test/runtimes/helpers.js";
import { memoryKiB } from "../test/support/memory.js";
import { fmt, LinePlugin, table, type Launch } from "./lib.js";

const STALLED_ANSWERS = 800;
const STALLED_ANSWER_BYTES = 400 * 1024;
const CONCURRENT = 1000;

const RUNTIMES: Record<string, () => Launch> = { ts: tsPlugin, python: pythonPlugin, go: goPlugin };

const invoke = (id: number, tool: string, args: object) => ({
  jsonrpc: "2.0",
  id,
  method: "invoke",
  params: { tool, arguments: args },
});

/** Peak RSS while the host asks for 800 answers of 400 KiB and reads none of them for 3 s. */
async function rssStalled(launch: Launch): Promise<number> {
  const plugin = new LinePlugin(launch);
  plugin.send({ jsonrpc: "2.0", id: 0, method: "describe" });
  await plugin.next();
  plugin.child.stdout.pause();
  for (let i = 1; i <= STALLED_ANSWERS; i++) plugin.send(invoke(i, "big", { bytes: STALLED_ANSWER_BYTES }));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const peak = memoryKiB(plugin.child.pid!).peak / 1024;
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
  rows.push(
    [
      lang,
      `peak RSS, host not reading, ${STALLED_ANSWERS} x 400 KiB asked (MiB)`,
      fmt(await rssStalled(runtime)),
      "< 300",
    ],
    [
      lang,
      `${CONCURRENT.toLocaleString("en")} concurrent invokes sleeping 200 ms (ms)`,
      fmt(await concurrentMs(runtime)),
      "< 1500",
    ],
  );
}
process.stdout.write(table(["language", "measure", "runtime", "goal"], rows));
