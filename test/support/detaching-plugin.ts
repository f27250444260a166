/** A hand-written plugin that, as it starts, puts a child in its own session (a detached spawn, like `setsid`). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface DetachingPlugin {
  name: string;
  /** Its one tool, answered after `answerAfterMs`. */
  tool: string;
  answerAfterMs: number;
  /** Whether it exits on stdin EOF and on SIGTERM (otherwise only a kill ends it). */
  exitsWhenAsked: boolean;
}

/** Writes `plugin.js` into `dir`, whose child is `sleep <mark>` (find it with `pgrep -f "sleep <mark>"`); returns its path. */
export function writeDetachingPlugin(dir: string, mark: string, plugin: DetachingPlugin): string {
  const path = join(dir, "plugin.js");
  const manifest = {
    name: plugin.name,
    display_name: plugin.name,
    version: "1.0.0",
    description: "Starts a helper in its own session.",
    tools: [{ name: plugin.tool, description: "Answers when it is done.", parameters: [] }],
  };
  const answer = `reply({ result: { success: true, data: {}, duration_ms: 0 } })`;
  writeFileSync(
    path,
    `const { spawn } = require("node:child_process");
spawn("sleep", [${JSON.stringify(mark)}], { detached: true, stdio: "ignore" }).unref();
const manifest = ${JSON.stringify(manifest)};
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const reply = (body) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...body }) + "\\n");
  if (m.method === "describe") reply({ result: manifest });
  else if (m.method === "health") reply({ result: { status: "ready" } });
  else if (m.method === "invoke") ${plugin.answerAfterMs ? `setTimeout(() => ${answer}, ${plugin.answerAfterMs})` : answer};
  else reply({ error: { code: -32601, message: "Method not found" } });
})${plugin.exitsWhenAsked ? `.on("close", () => process.exit(0));\nprocess.on("SIGTERM", () => process.exit(0))` : ""};
`,
  );
  return path;
}
