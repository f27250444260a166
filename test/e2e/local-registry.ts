/**
 * This package published to a real local registry (verdaccio on 127.0.0.1, its own storage, every
 * other package proxied from the npm registry the machine uses), for the tests that run what a
 * user runs: `npm create`, `pnpm create`, `yarn create`, `npx --package=...`. scripts/run-tests.mjs
 * starts one for every file of a run that needs it (one publish, one warm npm cache) and says where
 * in EXECUTA_E2E_REGISTRY_URL and EXECUTA_E2E_REGISTRY_ROOT; a file run on its own starts its own.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { REPO_ROOT, installedToolchain, run } from "./toolchain.js";

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The folder of its storage, our npmrc and npm cache. */
  root: string;
  /** The environment npm (and pnpm, which reads npm's config) uses it with: our own npmrc and cache. */
  env: NodeJS.ProcessEnv;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts verdaccio with its files under `root` and publishes the packed toolchain to it. */
export async function startLocalRegistry(root: string): Promise<LocalRegistry> {
  const upstream = run("npm", ["config", "get", "registry"]).stdout.trim();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  writeFileSync(
    join(root, "config.yaml"),
    [
      `storage: ${join(root, "storage")}`,
      "auth:",
      `  htpasswd: { file: ${join(root, "htpasswd")}, max_users: 10 }`,
      `uplinks:`,
      // Metadata fetched once per run (verdaccio's default refetches it every 2 minutes).
      `  upstream: { url: ${JSON.stringify(upstream)}, maxage: 1h }`,
      "packages:",
      "  'create-executa': { access: $all, publish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  const verdaccio = spawn(
    join(REPO_ROOT, "node_modules", ".bin", "verdaccio"),
    ["--config", join(root, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    { stdio: "ignore" },
  );
  let token: string | undefined;
  for (let i = 0; i < 100 && !token; i++) {
    await new Promise((r) => setTimeout(r, 200));
    token = await fetch(`${url}-/user/org.couchdb.user:tester`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "tester", password: "tester-password" }),
    })
      .then((r) => (r.ok ? (r.json() as Promise<{ token: string }>) : undefined))
      .then(
        (b) => b?.token,
        () => undefined,
      );
  }
  assert.ok(token, "verdaccio did not start");
  const env = registryEnv(root);
  writeFileSync(env.npm_config_userconfig!, `registry=${url}\n`);
  // The token goes to the publish alone: verdaccio checks a token against its htpasswd file, a
  // bcrypt hash of about 60 ms of CPU, on every request that carries one.
  const publishConfig = join(root, "publish.npmrc");
  writeFileSync(publishConfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const published = run("npm", ["publish", installedToolchain().tarball, "--registry", url], {
    env: { ...env, npm_config_userconfig: publishConfig },
  });
  assert.equal(published.status, 0, published.output);
  return { url, root, env, stop: () => void verdaccio.kill("SIGTERM") };
}

/** The environment npm uses the registry under `root` with. */
function registryEnv(root: string): NodeJS.ProcessEnv {
  return {
    CI: "true",
    NO_COLOR: "1",
    npm_config_userconfig: join(root, "npmrc"),
    npm_config_cache: join(root, "npm-cache"),
    npm_config_update_notifier: "false",
    // The registry's documents do not change after the publish: npm and pnpm read them from the
    // cache the run's first install filled. Each ask costs verdaccio seconds of CPU (the documents
    // of typescript and @types/node are megabytes, rewritten for every answer).
    npm_config_prefer_offline: "true",
  };
}

/** The run's shared registry when scripts/run-tests.mjs started one, else a new one under `root`. */
export async function localRegistry(root: string): Promise<LocalRegistry> {
  const url = process.env.EXECUTA_E2E_REGISTRY_URL;
  const sharedRoot = process.env.EXECUTA_E2E_REGISTRY_ROOT;
  if (url && sharedRoot) return { url, root: sharedRoot, env: registryEnv(sharedRoot), stop: () => {} };
  return startLocalRegistry(root);
}
