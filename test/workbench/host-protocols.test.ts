/**
 * The workbench as `executa dev` runs it: a host that sends no initialize (Anna's local-dev
 * runtime) still serves the plugin's reverse requests; each executa/progress notification is a
 * `<~ progress {...}` line while the invoke runs, and `--record` keeps them (a recording that
 * `executa test --fixtures` still reads).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { readFixture } from "../../src/host/index.js";
import { Workbench } from "../../src/workbench/index.js";
import { REPO_ROOT } from "../host/helpers.js";

const launch = {
  command: process.execPath,
  args: [join(REPO_ROOT, "test", "plugins", "node", "web-researcher.mjs")],
  cwd: REPO_ROOT,
  source: "test",
};
const dir = mkdtempSync(join(tmpdir(), "executa-host-protocols-"));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const protocol of ["none", "2.0", "1.1"] as const) {
  it(`host protocol ${protocol}: ${protocol === "1.1" ? "the plugin refuses its services itself" : "web/search is served and progress is shown live and recorded"}`, async () => {
    const lines: string[] = [];
    const record = join(dir, `${protocol}.jsonl`);
    const workbench = new Workbench(launch, { hostProtocol: protocol, log: (l) => lines.push(l), record });
    try {
      await workbench.start();
      const sentInitialize = workbench.session!.transcript.some(
        (r) => r.dir === "send" && r.text.includes('"initialize"'),
      );
      assert.equal(sentInitialize, protocol !== "none");
      const r = await workbench.invoke("research", { topic: "tides" });
      const result = r.frame.result as { success: boolean; error?: string };
      if (protocol === "1.1") {
        assert.equal(result.success, false);
        assert.match(result.error!, /offered protocol 1\.1/);
        return;
      }
      assert.equal(result.success, true, JSON.stringify(r.frame));
      const progress = lines.filter((l) => l.startsWith("<~ "));
      assert.equal(progress.length, 2, lines.join("\n"));
      assert.match(
        progress[0]!,
        /^<~ progress \{"step":1,"of":2,"message":"searching for tides"\} \(invoke inv-[0-9a-f]+\)$/,
      );
      assert.ok(lines.indexOf(progress[1]!) < lines.length, "shown before the invoke returned");
    } finally {
      await workbench.close();
    }
    const events = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind: string; type?: string; data?: { step?: number } });
    assert.deepEqual(
      events.filter((e) => e.kind === "progress").map((e) => [e.type, e.data?.step]),
      [
        ["progress", 1],
        ["progress", 2],
      ],
    );
    const fixture = readFixture(record);
    assert.ok(fixture.exchanges.some((x) => x.method === "invoke"));
    assert.ok(fixture.notReplayed.includes("progress ×2"), fixture.notReplayed.join(", "));
  });
}
