/**
 * The formatter, the linter (Biome, biome.json) and the dead-code finder (knip, knip.json) agree
 * with the code: `npm run lint` exits 0. Fix with `npm run format` and `npx biome check --write`;
 * knip names each unused file, export or dependency.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";

const bin = (name: string) => join(PACKAGE_ROOT, "node_modules", ".bin", name);
const run = (command: string, ...args: string[]) =>
  spawnSync(bin(command), args, { cwd: PACKAGE_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });

test("biome: every source file is formatted and passes the linter", () => {
  const r = run("biome", "ci", "--colors=off");
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}\nfix: npm run format && npx biome check --write`);
});

test("knip: no unused file, export or dependency", () => {
  const r = run("knip", "--no-progress");
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
