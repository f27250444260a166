import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { RenderedFile } from "./render.js";
import { checkTarget, writeProject } from "./write.js";

const file = (path: string, text = path): RenderedFile => ({ path, content: Buffer.from(text), mode: 0o644 });

test("a write that fails halfway removes everything it created and keeps what was there", async () => {
  const dir = mkdtempSync(join(tmpdir(), "write-"));
  writeFileSync(join(dir, "keep.txt"), "mine");
  // The third file needs a folder where the first one put a file: a real ENOTDIR mid-write.
  const files = [file("a.txt"), file("b/c/d.txt"), file("a.txt/e.txt")];
  await assert.rejects(writeProject(dir, files), /could not write the project.*ENOTDIR/);
  assert.deepEqual(readdirSync(dir), ["keep.txt"]);
  assert.equal(readFileSync(join(dir, "keep.txt"), "utf8"), "mine");
});

test("a new target folder is removed whole when the write fails", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "write-")), "new", "project");
  await assert.rejects(writeProject(dir, [file("x.txt"), file("x.txt/y.txt")]));
  assert.equal(existsSync(join(dir, "..")), false);
});

test("an existing file is never overwritten, even past the check", async () => {
  const dir = mkdtempSync(join(tmpdir(), "write-"));
  writeFileSync(join(dir, "x.txt"), "mine");
  await assert.rejects(writeProject(dir, [file("y.txt"), file("x.txt", "theirs")]), /EEXIST/);
  assert.equal(readFileSync(join(dir, "x.txt"), "utf8"), "mine");
  assert.deepEqual(readdirSync(dir), ["x.txt"]);
});

test("checkTarget: empty folders pass; non-empty need --force; --force lists conflicts", async () => {
  const dir = mkdtempSync(join(tmpdir(), "write-"));
  await checkTarget(dir, ["a"], false);
  writeFileSync(join(dir, "a"), "");
  await assert.rejects(checkTarget(dir, ["b"], false), /not empty/);
  await checkTarget(dir, ["b"], true);
  await assert.rejects(checkTarget(dir, ["a", "b"], true), /1 file\(s\).*: a$/);
});
