/**
 * A TypeScript plugin never runs code older than its source: `executa dev` and `executa test` compile
 * it fresh (no compile step of the user's, no dist/ needed right after a --no-install scaffold, where
 * the type check is skipped until the type packages are installed), and
 * `dev --watch` regenerates the manifest before it restarts.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";

const EXECUTA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "executa.js");
const SHOUT = `
/**
 * Shout a word.
 * @tool
 */
export function shout(word: string): string {
  return word.toUpperCase() + "!";
}
`;

function executa(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [EXECUTA, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function tsProject(name: string): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "executa-fresh-")), name);
  await scaffold({ targetDir: dir, spec: makeSpec({ lang: "ts", name }), install: false, git: false, quiet: true });
  return dir;
}

test("right after a --no-install scaffold, dev and test run the plugin from its source; a new tool answers at once", {
  timeout: 120_000,
}, async () => {
  const dir = await tsProject("fresh-plugin");
  const stats = executa(["dev", "--invoke", "text_stats", "--args", '{"text":"a b a"}', "--json"], dir);
  assert.equal(stats.code, 0, stats.stderr);
  assert.equal(JSON.parse(stats.stdout).answer.data.words, 3);

  appendFileSync(join(dir, "src", "tools.ts"), SHOUT);
  assert.equal(executa(["manifest"], dir).code, 0);
  const shout = executa(["dev", "--invoke", "shout", "--args", '{"word":"hey"}', "--json"], dir);
  assert.equal(shout.code, 0, shout.stderr);
  assert.equal(JSON.parse(shout.stdout).answer.data, "HEY!");
  const checked = executa(["test", "--only", "describe,invoke.envelope", "--json"], dir);
  assert.equal(JSON.parse(checked.stdout).status, "ok", checked.stdout);
});

test("dev --watch regenerates manifest.json and restarts on a source change, and the REPL reaches the new tool", {
  timeout: 120_000,
}, async () => {
  const dir = await tsProject("watch-plugin");
  const child = spawn(process.execPath, [EXECUTA, "dev", "--watch"], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stderr = "";
  let stdout = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  const waitFor = async (what: () => boolean, label: string) => {
    for (let i = 0; i < 300 && !what(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(what(), `${label}\n--- stderr\n${stderr}\n--- stdout\n${stdout}`);
  };
  try {
    await waitFor(() => /watching /.test(stderr), "the watcher started");
    appendFileSync(join(dir, "src", "tools.ts"), SHOUT);
    await waitFor(() => /restarted; 4 tool\(s\)/.test(stderr), "restarted with the new tool");
    assert.match(stderr, /regenerated manifest\.json/);
    assert.ok(
      JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).tools.some(
        (t: { name: string }) => t.name === "shout",
      ),
    );
    child.stdin.write("invoke shout word=ok\n");
    await waitFor(() => /OK!/.test(stdout), "the REPL invoked the new tool");
    child.stdin.end("quit\n");
  } finally {
    child.kill();
  }
});
