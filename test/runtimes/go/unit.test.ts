/** The Go runtime's unit tests (test/runtimes/go/unit), run with `go test` in a module beside the runtime. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { NO_HTTP_TAG } from "../../../src/builder/go.js";
import { goModule, REPO } from "../helpers.js";
import { requires } from "../../support/requires.js";

/** `go test` of the runtime with the unit tests beside it, passing; `args` come before the package. */
function goTest(args: string[]): string {
  const root = goModule({ "internal/executa": join(REPO, "test", "runtimes", "go", "unit") });
  try {
    const run = spawnSync("go", ["test", ...args, "./internal/executa/"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, GOFLAGS: "-count=1" },
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    return run.stdout;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test("the Go runtime's unit tests pass", requires("go"), () => {
  goTest([]);
});

test(
  "built without net/http (as `executa build` builds a plugin that cannot upload), the runtime vets and refuses a PUT",
  requires("go"),
  () => {
    const out = goTest(["-tags", NO_HTTP_TAG, "-vet=all", "-v", "-run", "WithoutNetHTTP"]);
    assert.match(out, /--- PASS: TestWithoutNetHTTPAPutIsRefusedSayingHowToGetIt/);
  },
);
