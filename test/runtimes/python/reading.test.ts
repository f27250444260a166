/**
 * The Python runtime's reading (executa/reading.py), driven directly: quick invokes run on the
 * reading thread and the reading stays there; a slow one loses the reading to a new read loop
 * while it runs; one about to wait for the host hands it off at once; a thread that
 * does not hold the reading hands nothing off.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { exec } from "../../../src/common/exec.js";
import { requires } from "../../support/requires.js";

const RUNTIME = fileURLToPath(new URL("../../../../templates/python/__pyModule__/executa", import.meta.url));

const SCRIPT = `
import json, sys, threading, time
sys.path.insert(0, sys.argv[1])
import reading as module
from reading import Reading

class Workers:  # each job on a thread of its own (the first read loop has one anyway)
    submitted = 0
    def submit(self, job):
        self.submitted += 1
        threading.Thread(target=job, daemon=True).start()

loops = []  # (turn, when it started) of each read loop
def read_loop(turn):
    loops.append((turn, time.monotonic()))

def wait_until(check):
    deadline = time.monotonic() + 5
    while not check() and time.monotonic() < deadline:
        time.sleep(0.001)

out = {}
workers = Workers()
reading = Reading(workers, read_loop)
reading.start()
wait_until(lambda: len(loops) == 1)
me = threading.get_ident()
# A machine under load may pause this thread for more than 5 ms inside a quick invoke, and that
# rightly moves the reading: the quick invokes run with a hand-off time no pause reaches.
module.HAND_OFF_AFTER_S = 1.0
ran_on = set()
for _ in range(200):
    reading.run_here(lambda: ran_on.add(threading.get_ident()))
out["quick_ran_here"] = ran_on == {me}
out["quick_kept_reading"] = workers.submitted == 0 and loops[0][0].reading

module.HAND_OFF_AFTER_S = 0.005
started = time.monotonic()
reading.run_here(lambda: time.sleep(2.5))  # the watchdog may still be in a 1 s wait
out["slow_moved_before_it_ended"] = len(loops) == 2 and loops[1][1] - started < 2
out["old_loop_stops"] = not loops[0][0].reading and loops[1][0].reading

def waits_for_host():
    reading.hand_off()
    out["handed_off_at_once"] = workers.submitted == 2
reading.run_here(waits_for_host)
wait_until(lambda: len(loops) == 3)
out["new_loop_reads"] = loops[2][0].reading and not loops[1][0].reading

other = threading.Thread(target=reading.hand_off)
other.start()
other.join()
out["other_thread_hands_nothing_off"] = workers.submitted == 2
print(json.dumps(out))
`;

test(
  "Python runtime reading: quick invokes run on the reading thread; a slow one, or one waiting for the host, moves the reading to a new loop",
  requires("python3"),
  async () => {
    const run = await exec("python3", ["-c", SCRIPT, RUNTIME], { timeoutMs: 30_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      quick_ran_here: true,
      quick_kept_reading: true,
      slow_moved_before_it_ended: true,
      old_loop_stops: true,
      handed_off_at_once: true,
      new_loop_reads: true,
      other_thread_hands_nothing_off: true,
    });
  },
);
