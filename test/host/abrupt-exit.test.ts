/**
 * The host owns what the plugin started even when executa itself is SIGKILLed: its watchdog ends
 * the plugins and a child one of them put in its own session (a detached spawn, like `setsid`)
 * within a few seconds.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { writeDetachingPlugin } from "../support/detaching-plugin.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const dir = mkdtempSync(join(tmpdir(), "executa-abrupt-"));
const MARK = `${300 + Math.floor(Math.random() * 1000)}.75`;
const running = (pattern: string) => spawnSync("pgrep", ["-f", pattern], { encoding: "utf8" }).stdout.trim();
after(() => {
  spawnSync("pkill", ["-KILL", "-f", `sleep ${MARK}`]);
  rmSync(dir, { recursive: true, force: true });
});

writeDetachingPlugin(dir, MARK, { name: "abrupt", tool: "wait", answerAfterMs: 600000, exitsWhenAsked: false });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("executa test SIGKILLed mid-run: its plugins and the child that left their process group are gone within seconds", {
  skip: process.platform !== "linux" && "the watchdog reads /proc (Linux)",
  timeout: 120_000,
}, async () => {
  const executa = spawn(process.execPath, [EXECUTA, "test", "--json", "--", process.execPath, join(dir, "plugin.js")], {
    cwd: dir,
    stdio: "ignore",
  });
  for (let i = 0; i < 200 && !running(`sleep ${MARK}`); i++) await sleep(50);
  assert.notEqual(running(`sleep ${MARK}`), "", "the plugin's detached child never started");
  await sleep(500);
  executa.kill("SIGKILL");
  let left = "";
  for (let i = 0; i < 100; i++) {
    left = [running(`sleep ${MARK}`), running(join(dir, "plugin.js"))].filter(Boolean).join(" ");
    if (!left) break;
    await sleep(50);
  }
  assert.equal(left, "", "processes the plugin session started outlived executa by 5 s");
});
