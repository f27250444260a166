/**
 * `executa inspect` on bad input: a clear error and exit 2 (one JSON object with --json), and a
 * plugin that cannot start is shown in the page (with its stderr) instead of ending the server.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { executa, rawRequest, startInspect } from "./inspect-helpers.js";

const empty = mkdtempSync(join(tmpdir(), "executa-inspect-cli-"));
test.after(() => rmSync(empty, { recursive: true, force: true }));

test("bad flags and a folder without a plugin are exit 2 with a hint", () => {
  const port = executa(["inspect", "--port", "70000", "--", process.execPath, "-e", ""], empty);
  assert.equal(port.code, 2);
  assert.match(port.stderr, /executa: error: --port must be a port number from 0 to 65535, got 70000/);
  const json = executa(["inspect", "--port", "-1", "--json", "--", process.execPath, "-e", ""], empty);
  assert.equal(json.code, 2);
  assert.equal(JSON.parse(json.stdout).status, "error");
  const credential = executa(["inspect", "--credential", "NOEQUALS", "--", process.execPath, "-e", ""], empty);
  assert.equal(credential.code, 2);
  assert.match(credential.stderr, /--credential NOEQUALS: the environment has no NOEQUALS/);
  const none = executa(["inspect"], empty);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no plugin found/);
});

test("a port already in use is exit 2, naming the port", async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
  try {
    const port = (taken.address() as AddressInfo).port;
    const r = executa(["inspect", "--port", String(port), "--", process.execPath, "-e", ""], empty);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
    assert.match(r.stderr, /hint: .*--port/);
  } finally {
    taken.close();
  }
});

test("a plugin that cannot start is shown as failed, with its stderr, and the server keeps serving", async () => {
  const running = await startInspect(empty, [
    "--",
    process.execPath,
    "-e",
    "console.error('boom: missing config'); process.exit(3)",
  ]);
  try {
    let plugin: { status: string; message?: string; stderrTail?: string } = { status: "starting" };
    for (let i = 0; i < 200 && plugin.status === "starting"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      plugin = (
        JSON.parse(
          (await rawRequest(running.port, { path: "/api/state", headers: { "X-Executa-Token": running.token } })).body,
        ) as { plugin: typeof plugin }
      ).plugin;
    }
    assert.equal(plugin.status, "failed");
    assert.match(plugin.stderrTail ?? "", /boom: missing config/);
    const restart = await rawRequest(running.port, {
      method: "POST",
      path: "/api/restart",
      headers: { "X-Executa-Token": running.token, "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(restart.status, 200);
    assert.equal((JSON.parse(restart.body) as { status: string }).status, "failed");
  } finally {
    assert.equal(await running.interrupt(), 0, running.stderr());
  }
});

test("--open hands the opener no secret: a file only this user reads, forwarding to a one-time link", {
  skip: process.platform !== "linux" && "the opener is xdg-open on Linux",
}, async () => {
  const bin = join(empty, "bin");
  mkdirSync(bin, { recursive: true });
  const opened = join(empty, "opened.txt");
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$*" > ${JSON.stringify(opened)}\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  const running = await startInspect(empty, ["--open", "--", process.execPath, "-e", "setInterval(() => {}, 1000)"], {
    PATH: `${bin}:${process.env.PATH}`,
  });
  try {
    for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
    // What every local user can read in /proc/<pid>/cmdline: a path, no code, no token.
    const argv = readFileSync(opened, "utf8");
    assert.match(argv, /^file:\/\/\S+\.html$/);
    assert.ok(!argv.includes("code=") && !argv.includes(running.token), argv);
    const file = fileURLToPath(argv);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
    const link = new URL(/url=([^"]+)"/.exec(readFileSync(file, "utf8"))![1]!.replace(/&amp;/g, "&"));
    const first = await rawRequest(running.port, { path: `/${link.search}` });
    assert.equal(first.status, 200);
    assert.match(first.headers["set-cookie"]?.[0] ?? "", /HttpOnly; SameSite=Strict/);
    assert.equal((await rawRequest(running.port, { path: `/${link.search}` })).status, 403, "the code works once");
    for (let i = 0; i < 100 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(existsSync(file), false, "the forwarding file goes once its code is spent");
    assert.ok(!running.stderr().includes(running.token), "the token is never logged");
  } finally {
    assert.equal(await running.interrupt(), 0, running.stderr());
  }
});
