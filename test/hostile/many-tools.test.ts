/**
 * Bounded work and visible progress: a describe with 100 000 tools is validated in linear time,
 * `executa test` checks a seeded sample of the tools and says so in every check that used it, and
 * on a terminal it shows which check (and which tool of it) is running, then clears that line.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { TOOL_SAMPLE_SIZE } from "../../src/conform/tool-sample.js";
import { validateManifest } from "../../src/protocol/index.js";
import { requires } from "../support/requires.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const TOOLS = 100_000;
const PLUGIN = join(PACKAGE_ROOT, "test", "broken-plugins", "node", "many-tools.mjs");
const env = { ...process.env, MANY_TOOLS: String(TOOLS) };

function seconds(work: () => unknown): number {
  const started = performance.now();
  work();
  return (performance.now() - started) / 1000;
}

test("validating a huge manifest takes linear time: 100 000 tools, one tool with 100 000 parameters, 10 000 credentials", () => {
  const parameters = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `p${i}`, type: "string", description: "p" }));
  const base = { name: "huge", display_name: "Huge", version: "1.0.0", description: "d" };
  const manyTools = {
    ...base,
    tools: Array.from({ length: TOOLS }, (_, i) => ({
      name: `tool_${i}`,
      description: "d",
      parameters: parameters(1),
    })),
  };
  const wideTool = { ...base, tools: [{ name: "wide", description: "d", parameters: parameters(100_000) }] };
  const manyCredentials = {
    ...wideTool,
    credentials: Array.from({ length: 10_000 }, (_, i) => ({ name: `KEY_${i}`, display_name: "k" })),
  };
  for (const [label, manifest] of Object.entries({ manyTools, wideTool, manyCredentials })) {
    let errors = 0;
    const took = seconds(() => (errors = validateManifest(manifest).filter((d) => d.severity === "error").length));
    assert.equal(errors, 0, label);
    assert.ok(took < 15, `${label}: validation took ${took.toFixed(1)} s`);
  }
  // The rule across credentials and parameters still holds (and names the right parameter).
  const clash = { ...wideTool, credentials: [{ name: "P99999", display_name: "k" }] };
  assert.deepEqual(
    validateManifest(clash)
      .filter((d) => d.severity === "error")
      .map((d) => d.path),
    ["$.tools[0].parameters[99999].name"],
  );
});

test(`executa test on ${TOOLS} tools finishes in bounded time, checking a seeded sample of ${TOOL_SAMPLE_SIZE} and saying so`, {
  timeout: 180_000,
}, () => {
  const started = performance.now();
  const r = spawnSync(process.execPath, [EXECUTA, "test", "--json", "--", process.execPath, PLUGIN], {
    env,
    encoding: "utf8",
    timeout: 170_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const took = (performance.now() - started) / 1000;
  assert.ok(took < 60, `executa test took ${took.toFixed(1)} s`);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as {
    status: string;
    toolSample?: unknown;
    results: { id: string; status: string; message?: string }[];
  };
  assert.deepEqual(report.toolSample, { checked: TOOL_SAMPLE_SIZE, of: TOOLS, seed: 1 });
  const said = `${TOOL_SAMPLE_SIZE} of ${TOOLS} tools checked`;
  for (const id of ["invoke.envelope", "invoke.invalid-arguments", "invoke.result-size", "lifecycle.eof"]) {
    const result = report.results.find((x) => x.id === id);
    assert.equal(result?.status, "pass", JSON.stringify(result));
    assert.ok(result!.message?.includes(said), `${id}: ${result!.message}`);
  }
  const untouched = report.results.find((x) => x.id === "health");
  assert.ok(!untouched?.message?.includes(said), "a check that uses no tools says nothing of the sample");
});

test("on a terminal, executa test shows the running check and its tool, then clears the line", {
  ...requires("script"),
  timeout: 180_000,
}, () => {
  const command = `stty cols 200; ${JSON.stringify(process.execPath)} ${JSON.stringify(EXECUTA)} test --only invoke.envelope -- ${JSON.stringify(process.execPath)} ${JSON.stringify(PLUGIN)}`;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], {
    encoding: "utf8",
    timeout: 170_000,
    env: { ...env, MANY_TOOLS_INVOKE_MS: "10", NO_COLOR: "1" },
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const shown = r.stdout.split("\r").filter((line) => /conformance checks: check \d+\/\d+/.test(line));
  assert.ok(
    shown.some((line) =>
      new RegExp(`check \\d+/\\d+: invoke\\.envelope \\(tool \\d+/${TOOL_SAMPLE_SIZE}\\)`).test(line),
    ),
    `no progress line for invoke.envelope in:\n${JSON.stringify(r.stdout.slice(0, 2000))}`,
  );
  assert.match(r.stdout, /\r\x1b\[K✔ conformance checks\r?\n/, "the progress line is cleared before the result line");
});

test("without a terminal, no progress line is printed", { timeout: 180_000 }, () => {
  const r = spawnSync(
    process.execPath,
    [EXECUTA, "test", "--only", "invoke.envelope", "--", process.execPath, PLUGIN],
    { env, encoding: "utf8", timeout: 170_000 },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stderr + r.stdout, /check \d+\/\d+|\x1b\[K/);
});
