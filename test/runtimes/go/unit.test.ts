/** The Go runtime's unit tests (test/runtimes/go/unit), run with `go test` in a module beside the runtime. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { goModule, REPO } from "../helpers.js";
import { requires } from "../../support/requires.js";

test("the Go runtime's unit tests pass", requires("go"), () => {
  const root = goModule({ "internal/executa": join(REPO, "test", "runtimes", "go", "unit") });
  try {
    const run = spawnSync("go", ["test", "./internal/executa/"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, GOFLAGS: "-count=1" },
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
