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

const LINUX_ONLY = { skip: process.platform !== "linux" && "the tracker reads /proc" };

/** Until `done()`, looking every 20 ms (4 s at most). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

/** Runs `script` under sh with a tracker watching it; its descendants are killed after `body`. */
async function tracked(script: string, body: (root: number, tracker: DescendantTracker) => Promise<void>) {
  const root = spawn("sh", ["-c", script], { stdio: "ignore" });
  const tracker = new DescendantTracker();
  tracker.watch(root.pid);
  try {
    await body(root.pid!, tracker);
  } finally {
    for (const [pid] of children(root.pid!)) process.kill(pid, "SIGKILL");
    root.kill("SIGKILL");
  }
}

const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, "utf8").trim();

test(
  "a descendant that died but is not reaped yet (a zombie) is not reported as still running; a live one is",
  LINUX_ONLY,
  () =>
    // `sleep 30` (exec'd in place of the shell) never reaps: the short sleep stays a zombie.
    tracked("sleep 0.2 & sleep 30 & exec sleep 30", async (root, tracker) => {
      await until(() => children(root).length >= 2);
      tracker.look();
      await until(() => children(root).some(([, state]) => state === "Z"));
      const [zombie, live] = children(root).sort((a, b) => (a[1] === "Z" ? -1 : b[1] === "Z" ? 1 : 0));
      assert.equal(zombie?.[1], "Z", JSON.stringify(children(root)));
      assert.deepEqual(tracker.stop(), [{ pid: live![0], name: "sleep" }]);
    }),
);

test("a descendant is reported by the name it runs under now, not the one it had when first seen", LINUX_ONLY, () =>
  // The subshell is seen as `sh`, then execs `sleep`.
  tracked("(sleep 0.4; exec sleep 30) & exec sleep 30", async (root, tracker) => {
    await until(() => children(root).length >= 1);
    tracker.look();
    const [[subshell]] = children(root) as [[number, string]];
    assert.equal(comm(subshell), "sh");
    await until(() => comm(subshell) === "sleep");
    assert.deepEqual(tracker.stop(), [{ pid: subshell, name: "sleep" }]);
  }),
);
