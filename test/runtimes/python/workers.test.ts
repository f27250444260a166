/**
 * The Python runtime's worker threads (executa/workers.py), driven directly: a stream of quick
 * invokes reuses one thread, the limit holds and queued jobs run once a thread is free, and a
 * job that raises leaves its thread serving.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { exec } from "../../../src/common/exec.js";
import { requires } from "../../support/requires.js";

const RUNTIME = fileURLToPath(new URL("../../../../templates/python/__pyModule__/executa", import.meta.url));

const SCRIPT = `
import json, sys, threading, time
sys.path.insert(0, sys.argv[1])
from workers import Workers

def wait_until(check):
    deadline = time.monotonic() + 5
    while not check() and time.monotonic() < deadline:
        time.sleep(0.01)

def invoke_threads():
    return sum(1 for t in threading.enumerate() if t.name == "executa-invoke")

out = {}
workers = Workers(3)
for _ in range(200):  # sequential quick invokes, each answered before the next arrives
    done = threading.Event()
    workers.submit(done.set)
    done.wait()
out["threads_after_sequential"] = invoke_threads()

release = threading.Event()
started = []
def slow(n):
    def job():
        started.append(n)
        release.wait()
    return job
for n in range(5):
    workers.submit(slow(n))
wait_until(lambda: len(started) >= 3)
time.sleep(0.1)
out["started_at_limit"] = len(started)
release.set()
wait_until(lambda: len(started) == 5)
out["started_after_release"] = len(started)

def boom():
    raise RuntimeError("the job's own failure")
workers.submit(boom)
time.sleep(0.1)
done = threading.Event()
workers.submit(done.set)
out["served_after_raise"] = done.wait(5)
out["threads_at_end"] = invoke_threads()
print(json.dumps(out))
`;

test(
  "Python runtime workers: quick invokes reuse one thread; at most `limit` run, the rest wait their turn; a raising job keeps its thread",
  requires("python3"),
  async () => {
    const run = await exec("python3", ["-c", SCRIPT, join(RUNTIME)], { timeoutMs: 30_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      threads_after_sequential: 1,
      started_at_limit: 3,
      started_after_release: 5,
      served_after_raise: true,
      threads_at_end: 3,
    });
  },
);
