/**
 * The inspect server is a local web server that starts processes, so it is a target (the MCP
 * Inspector's CVE-2025-49596). Each safety rule has its test here, against a real server and a
 * real plugin: loopback only; the token on every route, the event stream and the assets, and
 * never in a URL (a link's one-time code buys it as an HttpOnly cookie); Host
 * and Origin checked (no DNS rebinding, no cross-site requests); JSON-only POSTs; and no route
 * runs anything but the plugin the command line named, whatever its body says.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { startInspect, type RunningInspect } from "../../src/workbench/index.js";
import { PLUGINS } from "../host/helpers.js";
import { rawRequest } from "./inspect-helpers.js";

const GET_ROUTES = [
  "/app.js",
  "/app.css",
  "/events",
  "/api/state",
  "/api/storage",
  "/api/export/candidates",
  "/api/export/trace",
  "/api/storage/file?scope=app&path=x",
];
const POST_ROUTES = [
  "/api/invoke",
  "/api/health",
  "/api/describe",
  "/api/restart",
  "/api/credentials",
  "/api/sampling",
  "/api/rules",
  "/api/manual",
  "/api/host",
  "/api/storage/kv-set",
  "/api/storage/kv-delete",
  "/api/storage/file-write",
  "/api/storage/file-delete",
  "/api/conformance",
  "/api/export/fixture",
  "/api/import",
];

let running: RunningInspect;
let port: number;
let token: string;
const logs: string[] = [];
const root = mkdtempSync(join(tmpdir(), "executa-inspect-safety-"));
const marker = join(root, "pwned");
const launch = {
  command: process.execPath,
  args: [join(PLUGINS, "node", "reference.mjs")],
  cwd: root,
  source: "the test",
};

before(async () => {
  running = await startInspect({ launch, mockHost: {}, port: 0, log: (line) => logs.push(line) });
  await running.started;
  ({ port, token } = running.server);
});

after(async () => {
  await running.close();
  rmSync(root, { recursive: true, force: true });
});

const auth = (extra: Record<string, string> = {}) => ({ "X-Executa-Token": token, ...extra });
const reachable = (host: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port }, () => (socket.destroy(), resolve(true)));
    socket.on("error", () => resolve(false));
  });

test("it listens on 127.0.0.1 only", async () => {
  assert.equal(await reachable("127.0.0.1"), true);
  const others = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal)
    .map((a) => a!.address);
  for (const address of [...others, "::1"]) assert.equal(await reachable(address), false, `reachable on ${address}`);
});

test("every route, the event stream and the assets refuse a request without the token, or with a wrong one", async () => {
  for (const path of GET_ROUTES) {
    for (const headers of [{}, { "X-Executa-Token": "wrong" }] as Record<string, string>[]) {
      const r = await rawRequest(port, { path, headers });
      assert.equal(r.status, 403, `GET ${path} ${JSON.stringify(headers)}`);
      assert.match(r.body, /token/);
    }
    assert.equal(
      (await rawRequest(port, { path: `${path}${path.includes("?") ? "&" : "?"}token=${token.slice(0, -1)}x` })).status,
      403,
      `GET ${path} with a wrong query token`,
    );
  }
  for (const path of POST_ROUTES) {
    const r = await rawRequest(port, {
      method: "POST",
      path,
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(r.status, 403, `POST ${path}`);
  }
  // With it, the same requests are served; the token in a URL is never taken.
  assert.equal((await rawRequest(port, { path: "/app.js", headers: auth() })).status, 200);
  assert.equal((await rawRequest(port, { path: "/api/state", headers: auth() })).status, 200);
  for (const path of ["/app.js", "/api/state", "/events"])
    assert.equal((await rawRequest(port, { path: `${path}?token=${token}` })).status, 403, `${path}?token=`);
});

test("a link's code buys the token once, as an HttpOnly SameSite=Strict cookie; the page never holds it", async () => {
  const link = new URL(running.server.url);
  assert.deepEqual([...link.searchParams.keys()], ["code"]);
  assert.ok(!running.server.url.includes(token));
  const page = await rawRequest(port, { path: `/${link.search}` });
  assert.equal(page.status, 200);
  assert.equal(page.headers["set-cookie"]?.[0], `executa-inspect-${port}=${token}; Path=/; HttpOnly; SameSite=Strict`);
  assert.equal(page.headers["referrer-policy"], "no-referrer");
  assert.ok(!page.body.includes(token), "the page's HTML carries no secret");
  const again = await rawRequest(port, { path: `/${link.search}` });
  assert.equal(again.status, 403, "a spent code");
  assert.equal(again.headers["set-cookie"], undefined);
  const cookie = { Cookie: `executa-inspect-${port}=${token}` };
  for (const path of ["/", "/app.js", "/api/state"])
    assert.equal((await rawRequest(port, { path, headers: cookie })).status, 200, `${path} with the cookie`);
  assert.equal(
    (await rawRequest(port, { path: "/api/state", headers: { Cookie: `executa-inspect-${port + 1}=${token}` } }))
      .status,
    403,
    "another port's cookie",
  );
  // A visit without a cookie or a live code makes a fresh link appear in the terminal, which works once.
  logs.length = 0;
  await new Promise((r) => setTimeout(r, 1100));
  const refused = await rawRequest(port, { path: "/?code=made-up" });
  assert.equal(refused.status, 403);
  assert.match(refused.body, /fresh link is printed in the terminal/);
  const fresh = /(http:\/\/127\.0\.0\.1:\d+\/\?code=[\w-]+)/.exec(logs.join("\n"))?.[1];
  assert.ok(fresh, logs.join("\n"));
  assert.ok(!logs.join("\n").includes(token), "the token is never logged");
  assert.equal((await rawRequest(port, { path: new URL(fresh).pathname + new URL(fresh).search })).status, 200);
});

test("a Host that is not this server's address is refused (DNS rebinding)", async () => {
  for (const host of [
    "evil.example",
    `evil.example:${port}`,
    `127.0.0.1:${port + 1}`,
    `127.0.0.1.nip.io:${port}`,
    `[::1]:${port}`,
  ]) {
    const r = await rawRequest(port, { path: "/api/state", headers: auth({ Host: host }) });
    assert.equal(r.status, 403, host);
    assert.match(r.body, /Host header/);
  }
  assert.equal(
    (await rawRequest(port, { path: "/api/state", headers: auth({ Host: `localhost:${port}` }) })).status,
    200,
  );
});

test("a request from another origin is refused, even with the token", async () => {
  for (const origin of ["http://evil.example", `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, "null"]) {
    const r = await rawRequest(port, {
      method: "POST",
      path: "/api/restart",
      headers: auth({ Origin: origin, "Content-Type": "application/json" }),
      body: "{}",
    });
    assert.equal(r.status, 403, origin);
  }
  const site = await rawRequest(port, { path: "/api/state", headers: auth({ "Sec-Fetch-Site": "cross-site" }) });
  assert.equal(site.status, 403);
  assert.equal(
    (
      await rawRequest(port, {
        path: "/api/state",
        headers: auth({ Origin: `http://127.0.0.1:${port}`, "Sec-Fetch-Site": "same-origin" }),
      })
    ).status,
    200,
  );
});

test("a POST that is not JSON is refused (a cross-site form cannot send JSON)", async () => {
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
    const r = await rawRequest(port, {
      method: "POST",
      path: "/api/restart",
      headers: auth({ "Content-Type": type }),
      body: "{}",
    });
    assert.equal(r.status, 415, type);
  }
});

test("no route runs a command the command line did not give, whatever its body says", async () => {
  const sessions = (
    JSON.parse((await rawRequest(port, { path: "/api/state", headers: auth() })).body) as {
      plugin: { session: number };
    }
  ).plugin.session;
  const evil = {
    command: ["touch", marker],
    cmd: `touch ${marker}`,
    args: [marker],
    launch: { command: "touch", args: [marker] },
    cwd: root,
    executable: "/usr/bin/touch",
    shell: `touch ${marker}`,
    path: marker,
    file: marker,
  };
  for (const path of POST_ROUTES.filter((p) => p !== "/api/conformance")) {
    const r = await rawRequest(port, {
      method: "POST",
      path,
      headers: auth({ "Content-Type": "application/json" }),
      body: JSON.stringify(evil),
    });
    assert.ok(r.status < 500, `POST ${path}: ${r.status} ${r.body}`);
  }
  const state = JSON.parse((await rawRequest(port, { path: "/api/state", headers: auth() })).body) as {
    plugin: { session: number; launch: { command: string; args: string[] } };
  };
  assert.equal(existsSync(marker), false, "nothing ran touch");
  assert.deepEqual(
    state.plugin.launch,
    { command: launch.command, args: launch.args, source: launch.source },
    "the plugin is still the one the command line named",
  );
  assert.equal(state.plugin.session, sessions + 1, "the restart restarted that plugin, once");
  for (const method of ["PUT", "DELETE", "OPTIONS"])
    assert.equal((await rawRequest(port, { method, path: "/api/restart", headers: auth() })).status, 400, method);
  assert.equal((await rawRequest(port, { path: "/api/exec", headers: auth() })).status, 404);
  // A storage path is a key, never a place on disk.
  const r = await rawRequest(port, {
    method: "POST",
    path: "/api/storage/file-write",
    headers: auth({ "Content-Type": "application/json" }),
    body: JSON.stringify({ scope: "app", path: "../../pwned", text: "x" }),
  });
  assert.equal(r.status, 400);
  assert.match(r.body, /\.\. segment/);
});
