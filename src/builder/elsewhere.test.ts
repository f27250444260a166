import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { copyProject, elsewhere, otherTimeZone, otherUmask } from "./elsewhere.js";

function project(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "executa-elsewhere-")), "plugin");
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "src", "main.ts"), "export {};\n");
  writeFileSync(join(dir, "dist", "old-artifact"), "x");
  writeFileSync(join(dir, ".git", "HEAD"), "ref\n");
  writeFileSync(join(dir, "distant.txt"), "kept: only the output folder itself is left out\n");
  return dir;
}

test("the other time zone and umask always differ from this one's", () => {
  assert.equal(otherTimeZone(0), "Pacific/Kiritimati");
  assert.equal(otherTimeZone(-14 * 60), "America/Adak");
  assert.equal(otherUmask(0o022), 0o077);
  assert.equal(otherUmask(0o077), 0o002);
});

test("the copy leaves out .git and the output folder, and nothing else", () => {
  const dir = project();
  const root = mkdtempSync(join(tmpdir(), "executa-elsewhere-root-"));
  const copy = copyProject(dir, join(dir, "dist"), root);
  assert.notEqual(copy, dir);
  assert.deepEqual(readdirSync(copy).sort(), ["distant.txt", "src"]);
  assert.equal(readFileSync(join(copy, "src", "main.ts"), "utf8"), "export {};\n");
  const outside = copyProject(
    dir,
    join(root, "elsewhere-dist"),
    mkdtempSync(join(tmpdir(), "executa-elsewhere-root-")),
  );
  assert.deepEqual(
    readdirSync(outside).sort(),
    ["dist", "distant.txt", "src"],
    "an output folder outside the project leaves the project whole",
  );
});

test("the second build runs in the copy with empty caches, another TZ and umask; the caches removed and all restored after, even when it throws", async () => {
  const dir = project();
  const root = mkdtempSync(join(tmpdir(), "executa-elsewhere-root-"));
  const tz = process.env.TZ;
  const gocache = process.env.GOCACHE;
  const mask = process.umask(0o022);
  try {
    const seen = await elsewhere(dir, join(dir, "dist"), root, async (conditions) => {
      const probe = join(conditions.projectDir, "probe");
      writeFileSync(probe, "x");
      return {
        conditions,
        env: process.env.TZ,
        date: new Date("2026-01-01T00:00:00Z").getHours(),
        mode: statSync(probe).mode & 0o777,
        caches: Object.values(conditions.freshCaches).map((d) => readdirSync(d).length),
      };
    });
    assert.ok(seen.conditions.projectDir.startsWith(root));
    assert.ok(existsSync(join(seen.conditions.projectDir, "src", "main.ts")));
    assert.equal(seen.env, seen.conditions.timeZone);
    assert.equal(seen.date, 14, "Node's own clock follows the new TZ (UTC+14)");
    assert.equal(seen.mode, 0o600, "files are created under umask 077");
    assert.equal(seen.conditions.umask, "077");
    assert.deepEqual(Object.keys(seen.conditions.freshCaches).sort(), [
      "EXECUTA_BUILD_CACHE_DIR",
      "GOCACHE",
      "PYINSTALLER_CONFIG_DIR",
    ]);
    assert.deepEqual(seen.caches, [0, 0, 0]);
    for (const cache of Object.values(seen.conditions.freshCaches))
      assert.ok(!existsSync(cache), `${cache} outlived the second build`);
    assert.ok(existsSync(join(seen.conditions.projectDir, "probe")), "the copy is kept for the caller to inspect");
    assert.equal(process.env.TZ, tz);
    assert.equal(process.env.GOCACHE, gocache);
    await assert.rejects(
      elsewhere(dir, join(dir, "dist"), mkdtempSync(join(tmpdir(), "executa-elsewhere-root-")), async () => {
        throw new Error("build failed");
      }),
      /build failed/,
    );
    assert.equal(process.env.TZ, tz);
    assert.equal(process.umask(0o022), 0o022, "the umask is restored");
  } finally {
    process.umask(mask);
  }
});
