/**
 * A target's runtime is injected once with a slot, and each build writes its blob into the slot
 * (src/builder/sea-slot.ts): the real linux-x86_64 runtime, a real blob, the executable run.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { buildCacheDir } from "../../src/builder/cache.js";
import { fetchPackageFiles, type FetchedFile } from "../../src/builder/npm-fetch.js";
import { makeSeaBlob } from "../../src/builder/sea.js";
import { runtimeWithBlob, slotSize } from "../../src/builder/sea-slot.js";
import { nodeRuntimeFor } from "../../src/builder/targets/index.js";
import "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "executa-sea-slot-"));
let runtime: FetchedFile;
let blob: Buffer;

before(async () => {
  const r = nodeRuntimeFor("linux-x86_64");
  runtime = (await fetchPackageFiles([{ pkg: r.pkg, version: r.version, file: r.binary }]))[0]!;
  blob = await makeSeaBlob({
    hostNode: runtime.path,
    code: `console.log(require("node:sea").getAsset("greeting", "utf8"), process.argv.slice(2).join(" "))`,
    assets: { greeting: "hello from the slot" },
    workDir: root,
    useCodeCache: false,
    useSnapshot: false,
    label: "slot",
  });
});
after(() => {
  delete process.env.EXECUTA_BUILD_CACHE_DIR;
  rmSync(root, { recursive: true, force: true });
});

function run(bytes: Buffer, name: string): string {
  const exe = join(root, name);
  writeFileSync(exe, bytes);
  chmodSync(exe, 0o755);
  const r = spawnSync(exe, ["and", "its", "arguments"], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test("slots are powers of two of at least 1 MiB", () => {
  assert.deepEqual([0, 1, 1 << 20, (1 << 20) + 1, 5_000_000].map(slotSize), [
    1 << 20,
    1 << 20,
    1 << 20,
    2 << 20,
    8 << 20,
  ]);
});

// The build tests' build cache (another file may have prepared this runtime), then one of this
// file's own that starts from a copy of it.
const slots = join(root, "build-cache", "sea-slots");
let expected: Buffer;

test("the blob in its slot runs, with its assets; the prepared runtime is kept and used again", async () => {
  expected = await runtimeWithBlob(runtime, blob, "linux-x86_64", join(root, "work-1"));
  assert.equal(run(expected, "first"), "hello from the slot and its arguments");
  const shared = join(buildCacheDir(), "sea-slots");
  process.env.EXECUTA_BUILD_CACHE_DIR = join(root, "build-cache");
  mkdirSync(slots, { recursive: true });
  for (const file of ["linux-x86_64.bin", "linux-x86_64.json"]) copyFileSync(join(shared, file), join(slots, file));
  const kept = statSync(join(slots, "linux-x86_64.bin"));
  const again = await runtimeWithBlob(runtime, blob, "linux-x86_64", join(root, "work-2"));
  assert.ok(again.equals(expected), "the same blob gives the same bytes");
  assert.equal(statSync(join(slots, "linux-x86_64.bin")).mtimeMs, kept.mtimeMs, "not prepared again");
});

test("a damaged prepared runtime is prepared again and gives the same bytes; a larger blob gets a larger slot", async () => {
  const file = join(slots, "linux-x86_64.bin");
  const bytes = readFileSync(file);
  bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
  writeFileSync(file, bytes);
  assert.ok((await runtimeWithBlob(runtime, blob, "linux-x86_64", join(root, "work-4"))).equals(expected));

  const large = Buffer.concat([blob, Buffer.alloc((1 << 20) - blob.length + 1)]);
  const larger = await runtimeWithBlob(runtime, large, "linux-x86_64", join(root, "work-5"));
  assert.equal(larger.length - expected.length >= 1 << 20, true, "a 2 MiB slot");
  assert.equal(run(larger, "larger"), "hello from the slot and its arguments", "zeros after the blob are never read");
  const record = JSON.parse(readFileSync(join(slots, "linux-x86_64.json"), "utf8")) as { size: number };
  assert.equal(record.size, 2 << 20, "one prepared runtime per target: the last one");
});
