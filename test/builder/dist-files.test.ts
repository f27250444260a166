/** What dist/ holds is fixed whatever the machine: build.json is in SHA256SUMS, and modes do not follow the umask. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { requires } from "../support/requires.js";
import { scaffoldProject } from "./helpers.js";

const EXECUTA = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "executa.js");
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function modes(dir: string, rel = ""): Array<[string, number]> {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const path = join(rel, name);
    const mode = statSync(join(dir, path)).mode & 0o777;
    return statSync(join(dir, path)).isDirectory()
      ? [[`${path}/`, mode] as [string, number], ...modes(dir, path)]
      : [[path, mode] as [string, number]];
  });
}

test("under umask 077, every file in dist/ is 0644 (0755 when executable) and SHA256SUMS lists build.json", {
  ...requires("go"),
  timeout: 5 * 60_000,
}, async () => {
  const dir = await scaffoldProject("go", "modes");
  made.push(dirname(dir));
  const r = spawnSync(
    "bash",
    [
      "-c",
      `umask 077 && ${JSON.stringify(process.execPath)} ${JSON.stringify(EXECUTA)} build --target linux-x86_64,windows-x86_64 --no-verify`,
    ],
    { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  assert.equal(r.status, 0, r.stderr);
  const dist = join(dir, "dist");
  const found = modes(dist);
  for (const [path, mode] of found) {
    const executable = path.endsWith("/") || path === "modes-linux-x86_64" || path === "modes-windows-x86_64.exe";
    assert.equal(mode.toString(8), executable ? "755" : "644", path);
  }
  assert.ok(found.some(([p]) => p === "build.json"));
  const sums = readFileSync(join(dist, "SHA256SUMS"), "utf8");
  const buildJson = createHash("sha256")
    .update(readFileSync(join(dist, "build.json")))
    .digest("hex");
  assert.ok(sums.includes(`${buildJson}  build.json\n`), sums);
  const check = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: dist, encoding: "utf8" });
  assert.equal(check.status, 0, check.stdout + check.stderr);
});
