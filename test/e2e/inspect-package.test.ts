/**
 * `executa inspect` from the packed and installed package: the page and its bundled script and
 * style come from the package itself (nothing is fetched at run time), the printed link's code buys
 * the cookie they are served for, and Ctrl-C stops it with 0.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";
import { installedToolchain, tempDir, userEnv } from "./toolchain.js";

test("the installed package serves the inspect page, its script and its style", { timeout: 5 * 60_000 }, async () => {
  const { bin } = installedToolchain();
  const root = tempDir("inspect-package");
  const dir = join(root, "packaged-plugin");
  await scaffold({
    targetDir: dir,
    spec: makeSpec({ lang: "ts", name: "packaged-plugin" }),
    install: false,
    git: false,
    quiet: true,
  });
  const child = spawn(join(bin, "executa"), ["inspect", "--json"], { cwd: dir, env: userEnv({ NO_COLOR: "1" }) });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    for (let i = 0; i < 600 && !stdout.includes("\n") && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 50));
    const { status, url } = JSON.parse(stdout.split("\n")[0]!) as { status: string; url: string };
    assert.equal(status, "ok", stderr);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'none'; script-src 'self'/);
    assert.match(await page.text(), /<script type="module" src="\/app\.js">/);
    const cookie = /^[^;]+/.exec(page.headers.get("set-cookie") ?? "")?.[0];
    assert.ok(cookie, "the printed link's code buys the session cookie");
    for (const [asset, type] of [
      ["app.js", /javascript/],
      ["app.css", /css/],
    ] as const) {
      const r: Response = await fetch(new URL(`/${asset}`, url), { headers: { cookie } });
      assert.equal(r.status, 200, asset);
      assert.match(r.headers.get("content-type") ?? "", type);
      assert.ok((await r.text()).length > 1000, `${asset} is the bundled file`);
    }
  } finally {
    child.kill("SIGINT");
    assert.equal(await exited, 0, stderr);
    rmSync(root, { recursive: true, force: true });
  }
});
