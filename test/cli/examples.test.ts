/**
 * Every example the help prints runs as written: in a scaffolded Go project named my-plugin (the
 * name the examples use) with its first commit tagged v1.2.0 (the release the examples compare
 * with) and SIGNING_SECRET exported (the credential an example reads from the environment); for
 * create, in an empty folder; for init, in a fresh Go folder with several main files.
 * `npm create …` lines are run by the registry journey (test/e2e/registry.test.ts).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { commandsOf, type Program } from "../../src/cli/program.js";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";
import { goToolsFolder } from "../init/helpers.js";
import { requires } from "../support/requires.js";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin");
const root = mkdtempSync(join(tmpdir(), "executa-examples-"));
const project = join(root, "my-plugin");
const env = { ...process.env, CI: "true", NO_COLOR: "1", SIGNING_SECRET: "an example secret" };

function runExample(program: Program, line: string, cwd: string) {
  const command = line.replace(
    /^\$0/,
    `${JSON.stringify(process.execPath)} ${JSON.stringify(join(BIN, `${program}.js`))}`,
  );
  const r = spawnSync("sh", ["-c", command], { cwd, input: "", encoding: "utf8", timeout: 5 * 60_000, env });
  return { code: r.status, output: `${line}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}` };
}

/**
 * A verb that serves until Ctrl-C (inspect): run until it prints its URL, then interrupted the way
 * a terminal does it (SIGINT to the process group); it must stop cleanly, with exit code 0.
 */
async function runUntilInterrupted(program: Program, line: string, cwd: string) {
  const command = line.replace(
    /^\$0/,
    `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(BIN, `${program}.js`))}`,
  );
  const child = spawn("sh", ["-c", command], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const serving = /http:\/\/127\.0\.0\.1:\d+\//;
  const deadline = Date.now() + 60_000;
  while (!serving.test(stdout) && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const served = serving.test(stdout) && child.exitCode === null;
  if (served) process.kill(-child.pid!, "SIGINT");
  else if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  const code = await exited;
  return { code: served ? code : -1, output: `${line}\n--- stdout\n${stdout}\n--- stderr\n${stderr}` };
}

/** Builds first, so that the examples that read the built binary find it. */
const order = (line: string) => (/ build\b/.test(line) ? 0 : 1);

test("every example of every verb's help runs as written and exits 0", {
  ...requires("go", "git"),
  timeout: 20 * 60_000,
}, async () => {
  await scaffold({
    targetDir: project,
    spec: makeSpec({ lang: "go", name: "my-plugin" }),
    install: false,
    git: true,
    quiet: true,
  });
  assert.equal(spawnSync("git", ["tag", "v1.2.0"], { cwd: project }).status, 0, "git tag v1.2.0");
  const examples = (["executa", "create-executa"] as const).flatMap((program) =>
    commandsOf(program).flatMap((command) => {
      const isCreate = /^(create|\$0) \[dir\]/.test(String(command.command));
      const isInit = /^init \[dir\]/.test(String(command.command));
      return command.examples
        .filter(([line]) => line.startsWith("$0"))
        .map(([line]) => ({ program, line, isCreate, isInit, untilInterrupted: command.untilInterrupted }));
    }),
  );
  examples.sort((a, b) => order(a.line) - order(b.line));
  const goTools = () => {
    const dir = mkdtempSync(join(root, "init-"));
    goToolsFolder(dir);
    return dir;
  };
  for (const { program, line, isCreate, isInit, untilInterrupted } of examples) {
    const cwd = isCreate ? mkdtempSync(join(root, "create-")) : isInit ? goTools() : project;
    const r = untilInterrupted ? await runUntilInterrupted(program, line, cwd) : runExample(program, line, cwd);
    assert.equal(r.code, 0, r.output);
  }
});
