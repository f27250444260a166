/** executa test and executa dev as users run them: exit codes, --json, the piped REPL, record and replay. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EXECUTA, executa, PLUGINS } from "./helpers.js";
import { requires } from "../support/requires.js";

const NODE_DIR = join(PLUGINS, "node");

describe("executa test", () => {
  it("--json prints one report and exits 0 on the reference plugin", () => {
    const r = executa(["test", "--json", "--dir", NODE_DIR, "--", process.execPath, "reference.mjs"]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as {
      passed: boolean;
      results: { id: string; status: string }[];
      launch: { source: string };
    };
    assert.equal(report.passed, true);
    assert.equal(report.launch.source, "the command after --");
    assert.ok(report.results.some((x) => x.id === "invoke.envelope" && x.status === "pass"));
  });

  it("prints a table with the failure, its rule and frames, and exits 1", () => {
    const r = executa([
      "test",
      "--skip",
      "lifecycle,transport",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "health-healthy.mjs",
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /✖ health/);
    assert.match(r.stdout, /health status is "healthy"/);
    assert.match(r.stdout, /rule: SPEC health/);
    assert.match(r.stdout, /<- \{"jsonrpc":"2.0","id":\d+,"result":\{"status":"healthy"\}\}/);
    assert.match(r.stdout, /- lifecycle\.eof|passed, 1 failed/);
  });

  it("detects the launch from package.json in --dir", () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-detect-"));
    for (const f of ["_core.mjs", "reference.mjs"]) copyFileSync(join(NODE_DIR, f), join(dir, f));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "p", type: "module", bin: { p: "reference.mjs" } }),
    );
    const r = executa(["test", "--json", "--only", "describe", "--dir", dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).launch.source, "package.json bin p");
  });

  it("exits 2 with one error line when nothing can be run", () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-empty-"));
    const r = executa(["test", "--dir", dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^executa: error: no plugin found in /);
    assert.match(r.stderr, /hint: expected executa\.json/);
    assert.equal(executa(["test", "--fuzz", "-3", "--", "true"]).code, 2);
  });
});

describe("executa test --json: one object on stdout in every outcome", () => {
  const one = (r: { stdout: string }) => {
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 1, r.stdout);
    return JSON.parse(lines[0]!) as {
      status: string;
      error?: { message: string; hint?: string };
      results?: { id: string; status: string; message?: string; rule?: string }[];
    };
  };

  it("could not run: no plugin, a command that does not exist, bad flags, an unknown check id", () => {
    const empty = mkdtempSync(join(tmpdir(), "executa-empty-"));
    for (const [args, message] of [
      [["test", "--json", "--dir", empty], /no plugin found in/],
      [["test", "--json", "--", "/nonexistent/plugin"], /cannot start the plugin \(\/nonexistent\/plugin\)/],
      [["test", "--json", "--fuzz", "-3", "--", "true"], /--fuzz must be a whole number/],
      [
        ["test", "--json", "--only", "nope", "--dir", NODE_DIR, "--", process.execPath, "reference.mjs"],
        /unknown check id: nope/,
      ],
    ] as const) {
      const r = executa([...args]);
      assert.equal(r.code, 2, r.stderr);
      const out = one(r);
      assert.equal(out.status, "error");
      assert.match(out.error!.message, message);
      assert.ok(out.error!.hint, "a hint says what to do");
    }
  });

  it("failed and ok: every check keeps {id, status, message, rule}; --strict turns warnings into a failed run", () => {
    const failed = executa([
      "test",
      "--json",
      "--only",
      "health",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "health-healthy.mjs",
    ]);
    assert.equal(failed.code, 1);
    const report = one(failed);
    assert.equal(report.status, "failed");
    assert.deepEqual(
      report.results!.map((r) => [r.id, r.status]),
      [["health", "fail"]],
    );
    assert.match(report.results![0]!.rule!, /status. must be one of .ready., .error., .initializing./);
    const warned = executa([
      "test",
      "--json",
      "--only",
      "lifecycle.sigterm",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "ignores-sigterm.mjs",
    ]);
    assert.equal(warned.code, 0, warned.stderr);
    assert.equal(one(warned).status, "ok");
    assert.equal(one(warned).results![0]!.status, "warn");
    const strict = executa([
      "test",
      "--json",
      "--strict",
      "--only",
      "lifecycle.sigterm",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "ignores-sigterm.mjs",
    ]);
    assert.equal(strict.code, 1);
    assert.equal(one(strict).status, "failed");
    assert.equal(one(strict).results![0]!.status, "warn", "the verdict itself stays a warning");
  });
});

describe("executa dev", () => {
  it("runs REPL commands piped in (no TTY): tools, invoke with coerced values, health, trace", () => {
    const input =
      [
        "tools",
        'invoke echo text="hi there" times=2 loud=yes tags=a,b',
        "invoke ask question=why",
        "trace on",
        "health",
        "invoke echo times=x text=a",
        "nonsense",
        "quit",
      ].join("\n") + "\n";
    const r = executa(["dev", "--dir", NODE_DIR, "--", process.execPath, "reference.mjs"], { input });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /tags: array<string> \(optional\)/);
    assert.match(r.stdout, /"text": "HI THERE HI THERE"/);
    assert.match(r.stdout, /"a",\s+"b"/);
    assert.match(r.stdout, /"answer": "This is a canned reply/);
    assert.match(r.stderr, /<= sampling\/createMessage \(invoke inv-[0-9a-f]+\) answered by the mock host/);
    assert.match(r.stderr, /-> \{"jsonrpc":"2.0","id":\d+,"method":"health"\}/);
    assert.match(r.stdout, /"status": "ready"/);
    assert.match(r.stdout, /error: times is an integer, got "x"/);
    assert.match(r.stdout, /unknown command "nonsense"/);
  });

  it("one-shots print JSON and exit by the answer", () => {
    const ok = executa([
      "dev",
      "--invoke",
      "echo",
      "--args",
      '{"text":"x"}',
      "--json",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { status: "ok", answer: JSON.parse(ok.stdout).answer });
    assert.deepEqual(JSON.parse(ok.stdout).answer.data, { text: "x", tags: [] });
    const described = executa([
      "dev",
      "--describe",
      "--json",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(JSON.parse(described.stdout).answer.name, "conform-reference");
    const bad = executa([
      "dev",
      "--invoke",
      "echo",
      "--args",
      "{}",
      "--json",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(bad.code, 1);
    assert.equal(JSON.parse(bad.stdout).status, "failed");
    assert.equal(JSON.parse(bad.stdout).answer.error.code, -32602);
    const notJson = executa([
      "dev",
      "--invoke",
      "echo",
      "--args",
      "{nope",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /--args is not JSON/);
  });

  it("--credential reaches context.credentials", () => {
    const r = executa([
      "dev",
      "--invoke",
      "sign",
      "--args",
      '{"message":"m"}',
      "--credential",
      "REF_SECRET=k",
      "--json",
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      JSON.parse(r.stdout).answer.data.signature,
      "b60090e3052297aeb5a080889ce2fc4bca957e756faeb4df7d31800ca1e771ec",
    );
  });

  it("--record writes a transcript that executa test --fixtures replays, and a changed answer fails it", () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-rec-"));
    const file = join(dir, "session.jsonl");
    const rec = executa(["dev", "--record", file, "--dir", NODE_DIR, "--", process.execPath, "reference.mjs"], {
      input: "invoke echo text=hello times=3\nhealth\nquit\n",
    });
    assert.equal(rec.code, 0, rec.stderr);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { t: number; kind: string; method?: string; ns?: string });
    assert.equal(lines[0]!.kind, "meta", "a harness recording opens with its meta line");
    assert.deepEqual(
      lines.filter((l) => l.kind === "req").map((l) => `${l.ns}.${l.method}`),
      ["executa.initialize", "executa.describe", "executa.invoke", "executa.health"],
    );
    assert.ok(lines.every((l) => typeof l.t === "number"));
    const replay = executa([
      "test",
      "--json",
      "--only",
      "fixtures",
      "--fixtures",
      dir,
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.deepEqual(
      JSON.parse(replay.stdout).results.map((r: { id: string; status: string }) => [r.id, r.status]),
      [["fixtures/session", "pass"]],
    );
    writeFileSync(file, readFileSync(file, "utf8").replace("hello hello hello", "hello"));
    const broken = executa([
      "test",
      "--only",
      "fixtures",
      "--fixtures",
      file,
      "--dir",
      NODE_DIR,
      "--",
      process.execPath,
      "reference.mjs",
    ]);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /session\.jsonl line 6 \(invoke\)/);
  });

  it("--watch restarts the plugin when a source changes", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "executa-watch-"));
    for (const f of ["_core.mjs", "reference.mjs"]) copyFileSync(join(NODE_DIR, f), join(dir, f));
    const child = spawn(
      process.execPath,
      [EXECUTA, "dev", "--watch", "--dir", dir, "--", process.execPath, "reference.mjs"],
      { env: { ...process.env, NO_COLOR: "1" } },
    );
    t.after(() => child.kill("SIGKILL"));
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 100 && !re.test(stderr); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(stderr, re);
    };
    await waitFor(/watching .* \((fs\.watch|poll)\)/);
    writeFileSync(join(dir, "reference.mjs"), readFileSync(join(dir, "reference.mjs"), "utf8") + "\n// changed\n");
    await waitFor(/changed: reference\.mjs; restarting/);
    await waitFor(/restarted; 3 tool\(s\)/);
    child.stdin.end("quit\n");
    const code = await new Promise((r) => child.on("exit", r));
    assert.equal(code, 0);
  });

  it("works against a Python plugin too", requires("python3"), () => {
    const r = executa([
      "dev",
      "--invoke",
      "echo",
      "--args",
      '{"text":"py","times":2}',
      "--json",
      "--dir",
      join(PLUGINS, "python"),
      "--",
      "python3",
      "reference.py",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).answer.data.text, "py py");
  });
});
