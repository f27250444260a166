/**
 * The newcomer's path from a registry: this package published to a real local registry
 * (verdaccio on 127.0.0.1, its own storage, stopped at the end), then the user's own commands:
 * `npm create executa@latest`, `npm install`, `npx executa test` / `build`, and the generated
 * READMEs' `npx --package=create-executa …` lines.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { REPO_ROOT, have, installedToolchain, run, tempDir } from "./toolchain.js";

const VERDACCIO = join(REPO_ROOT, "node_modules", ".bin", "verdaccio");
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const root = tempDir("registry");
let registry = "";
let verdaccio: ChildProcess | undefined;
/** The environment every user command runs in: the local registry, our own npm config and cache. */
const env: NodeJS.ProcessEnv = { CI: "true", NO_COLOR: "1", npm_config_userconfig: join(root, "npmrc"), npm_config_cache: join(root, "npm-cache"), npm_config_update_notifier: "false" };

before(async () => {
  const upstream = run("npm", ["config", "get", "registry"]).stdout.trim();
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  writeFileSync(join(root, "config.yaml"), [
    `storage: ${join(root, "storage")}`,
    "auth:",
    `  htpasswd: { file: ${join(root, "htpasswd")}, max_users: 10 }`,
    `uplinks:`,
    `  upstream: { url: ${JSON.stringify(upstream)} }`,
    "packages:",
    "  'create-executa': { access: $all, publish: $authenticated }",
    "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
    "log: { type: stdout, format: pretty, level: error }",
    "",
  ].join("\n"));
  verdaccio = spawn(VERDACCIO, ["--config", join(root, "config.yaml"), "--listen", `127.0.0.1:${port}`], { stdio: "ignore" });
  let token: string | undefined;
  for (let i = 0; i < 100 && !token; i++) {
    await new Promise((r) => setTimeout(r, 200));
    token = await fetch(`${registry}-/user/org.couchdb.user:tester`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "tester", password: "tester-password" }),
    }).then((r) => (r.ok ? (r.json() as Promise<{ token: string }>) : undefined)).then((b) => b?.token, () => undefined);
  }
  assert.ok(token, "verdaccio did not start");
  writeFileSync(env.npm_config_userconfig!, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const published = run("npm", ["publish", installedToolchain().tarball, "--registry", registry], { env });
  assert.equal(published.status, 0, published.output);
});

after(() => {
  verdaccio?.kill("SIGTERM");
});

describe("from a local registry", { skip: !have("npm") && "npm is not installed", timeout: 15 * 60_000 }, () => {
  test("npm create executa, npm install, npx executa test and build in a TypeScript project", () => {
    const created = run("npm", ["create", "executa@latest", "ts-plugin", "--", "--lang", "ts", "--yes", "--no-git"], { cwd: root, env });
    assert.equal(created.status, 0, created.output);
    const dir = join(root, "ts-plugin");
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    assert.equal(pkg.devDependencies["create-executa"], `^${VERSION}`);
    const installed = run("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env });
    assert.equal(installed.status, 0, installed.output);
    const lock = readFileSync(join(dir, "package-lock.json"), "utf8");
    assert.match(lock, new RegExp(`"resolved": "${registry.replace(/[.]/g, "\\.")}create-executa/-/create-executa-${VERSION}\\.tgz"`));
    for (const args of [["executa", "manifest", "--check"], ["executa", "test"], ["executa", "build"]]) {
      const r = run("npx", args, { cwd: dir, env });
      assert.equal(r.status, 0, r.output);
    }
  });

  for (const lang of ["python", "go"] as const) {
    test(`npm create executa --lang ${lang}, then the generated README's npx lines`, { skip: !have(lang === "go" ? "go" : "python3") && `${lang} is not installed` }, () => {
      const created = run("npm", ["create", "executa@latest", `${lang}-plugin`, "--", "--lang", lang, "--yes", "--no-git", "--no-install"], { cwd: root, env });
      assert.equal(created.status, 0, created.output);
      const dir = join(root, `${lang}-plugin`);
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      const npx = /npx --yes --package='create-executa@[^']+' executa/.exec(readme)?.[0];
      assert.ok(npx, "the README names the toolchain through npx");
      for (const verb of ["manifest --check", "test"]) {
        const r = run("sh", ["-c", `${npx} ${verb}`], { cwd: dir, env });
        assert.equal(r.status, 0, r.output);
      }
    });
  }
});
