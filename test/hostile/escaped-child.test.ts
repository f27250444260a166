/**
 * The host owns what the plugin started: a child the plugin puts in its own session (a detached
 * spawn, like `setsid`) does not survive `executa test`, and lifecycle.orphans fails naming it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { writeDetachingPlugin } from "../support/detaching-plugin.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const dir = mkdtempSync(join(tmpdir(), "executa-escape-"));
const MARK = `${300 + Math.floor(Math.random() * 1000)}.25`;
const survivors = () => spawnSync("pgrep", ["-f", `sleep ${MARK}`], { encoding: "utf8" }).stdout.trim();
after(() => {
  spawnSync("pkill", ["-KILL", "-f", `sleep ${MARK}`]);
  rmSync(dir, { recursive: true, force: true });
});

writeDetachingPlugin(dir, MARK, { name: "escape", tool: "noop", answerAfterMs: 0, exitsWhenAsked: true });

test("a child in its own session is ended with the plugin, and lifecycle.orphans fails", {
  skip: process.platform !== "linux" && "descendants are tracked through /proc (Linux)",
  timeout: 300_000,
}, () => {
  const r = spawnSync(process.execPath, [EXECUTA, "test", "--json", "--", "node", "plugin.js"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
    timeout: 280_000,
  });
  const report = JSON.parse(r.stdout) as { results: { id: string; status: string; message?: string }[] };
  const orphans = report.results.find((x) => x.id === "lifecycle.orphans");
  assert.equal(orphans?.status, "fail", JSON.stringify(orphans));
  assert.match(orphans!.message!, /left its process group and outlived the plugin: sleep \(pid \d+\)/);
  assert.equal(survivors(), "", "a sleep the plugin started is still running");
});
