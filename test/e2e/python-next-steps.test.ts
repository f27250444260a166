/**
 * Every next step create prints for a Python project works as printed, in order: the tests, dev,
 * test, the install of the `build` extra (PyInstaller), then build.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { requires } from "../support/requires.js";
import { installedToolchain, run, tempDir, toolchain } from "./toolchain.js";

// Known and not this test's subject: the template's runtime refuses host services when no initialize came.
// The build still has to package the plugin with PyInstaller (asserted on its own below).
const KNOWN = new Map([
  [
    /executa (test|build)$/,
    "the template fails reverse.no-initialize (its runtime refuses host services without an initialize)",
  ],
]);

describe("create's printed next steps for Python", { ...requires("python3"), timeout: 15 * 60_000 }, () => {
  const root = tempDir("python-next-steps");
  const created = toolchain(
    "create-executa",
    ["word-tools", "--lang", "python", "--json", "--no-git", `--toolchain=file:${installedToolchain().tarball}`],
    { cwd: root },
  );
  assert.equal(created.status, 0, created.output);
  const { next } = JSON.parse(created.stdout) as { next: string[] };
  const [cd, ...steps] = next;

  test("start with cd and end with build", () => {
    assert.match(cd!, /^cd /);
    assert.match(steps.at(-1)!, /executa build$/);
  });

  for (const step of steps) {
    const todo = [...KNOWN].find(([pattern]) => pattern.test(step))?.[1];
    let ran: ReturnType<typeof run> | undefined;
    const runStep = () => (ran ??= run("sh", ["-c", `${cd} && ${step}`], { cwd: root, input: "" })); // `dev` quits on an empty stdin
    if (/executa build$/.test(step)) {
      test(`\`${step}\` packages the plugin with PyInstaller`, () => {
        const { output } = runStep();
        assert.doesNotMatch(output, /PyInstaller is not installed/);
        assert.match(output, /pyinstaller \d/, output);
      });
    }
    test(`\`${step}\` runs as printed`, { ...(todo && { todo }) }, () => {
      const { status, output } = runStep();
      assert.equal(status, 0, output);
    });
  }
});
