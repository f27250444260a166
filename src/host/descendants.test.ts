import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { DescendantTracker } from "./descendants.js";

/** [pid, state] of each child of `parent`, from /proc. */
function children(parent: number): [number, string][] {
  const out: [number, string][] = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === parent) out.push([Number(entry), fields[0]!]);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

test("a descendant that died but is not reaped yet (a zombie) is not reported as still running; a live one is", {
  skip: process.platform !== "linux" && "the tracker reads /proc",
}, async () => {
  // `sleep 30` (exec'd in place of the shell) never reaps: the short sleep stays a zombie.
  const root = spawn("sh", ["-c", "sleep 0.2 & sleep 30 & exec sleep 30"], { stdio: "ignore" });
  const tracker = new DescendantTracker();
  tracker.watch(root.pid);
  try {
    for (let i = 0; i < 100 && children(root.pid!).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    tracker.look();
    for (let i = 0; i < 200 && !children(root.pid!).some(([, state]) => state === "Z"); i++)
      await new Promise((r) => setTimeout(r, 20));
    const [zombie, live] = children(root.pid!).sort((a, b) => (a[1] === "Z" ? -1 : b[1] === "Z" ? 1 : 0));
    assert.equal(zombie?.[1], "Z", JSON.stringify(children(root.pid!)));
    assert.deepEqual(tracker.stop(), [{ pid: live![0], name: "sleep" }]);
  } finally {
    for (const [pid] of children(root.pid!)) process.kill(pid, "SIGKILL");
    root.kill("SIGKILL");
  }
});

test("a descendant is reported by the name it runs under now, not the one it had when first seen", {
  skip: process.platform !== "linux" && "the tracker reads /proc",
}, async () => {
  // The subshell is seen as `sh`, then execs `sleep`.
  const root = spawn("sh", ["-c", "(sleep 0.4; exec sleep 30) & exec sleep 30"], { stdio: "ignore" });
  const tracker = new DescendantTracker();
  tracker.watch(root.pid);
  try {
    for (let i = 0; i < 100 && children(root.pid!).length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    tracker.look();
    const [subshell] = children(root.pid!);
    assert.equal(readFileSync(`/proc/${subshell![0]}/comm`, "utf8").trim(), "sh");
    for (let i = 0; i < 200 && readFileSync(`/proc/${subshell![0]}/comm`, "utf8").trim() !== "sleep"; i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(tracker.stop(), [{ pid: subshell![0], name: "sleep" }]);
  } finally {
    for (const [pid] of children(root.pid!)) process.kill(pid, "SIGKILL");
    root.kill("SIGKILL");
  }
});
