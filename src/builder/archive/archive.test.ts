import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { exec, which } from "../../common/exec.js";
import { crc32ByTable } from "./crc32.js";
import { crc32, tarGz, untar, unzip, zip, type ArchiveEntry, type PieceStore } from "./index.js";
import { PIECE_SIZE } from "./pieces.js";

const entries: ArchiveEntry[] = [
  { path: "manifest.json", data: Buffer.from('{"name":"x"}\n'), mode: 0o644 },
  { path: "bin/x", data: Buffer.alloc(70_000, 7), mode: 0o755 },
];

test("tar.gz round-trips paths, contents and modes, and is byte-for-byte reproducible", () => {
  const a = tarGz(entries);
  assert.ok(a.equals(tarGz(entries)));
  const back = untar(a);
  assert.deepEqual(
    back.map((e) => [e.path, e.mode, e.data.length]),
    [
      ["manifest.json", 0o644, 13],
      ["bin/x", 0o755, 70_000],
    ],
  );
  assert.ok(back[1]!.data.equals(entries[1]!.data));
});

test("zip round-trips paths, contents and Unix modes, and is reproducible", () => {
  const a = zip(entries);
  assert.ok(a.equals(zip(entries)));
  const back = unzip(a);
  assert.deepEqual(
    back.map((e) => [e.path, e.mode]),
    [
      ["manifest.json", 0o644],
      ["bin/x", 0o755],
    ],
  );
  assert.ok(back[1]!.data.equals(entries[1]!.data));
});

test("crc32 is the standard one, carried on from a previous value, by zlib and by the table alike", () => {
  assert.equal(crc32(Buffer.from("123456789")), 0xcbf43926);
  assert.equal(crc32ByTable(Buffer.from("123456789")), 0xcbf43926);
  const [a, b] = [Buffer.from("12345"), Buffer.from("6789")];
  assert.equal(crc32(b, crc32(a)), 0xcbf43926);
  assert.equal(crc32ByTable(b, crc32ByTable(a)), 0xcbf43926);
});

/** Bytes that compress, but not to nothing: a counter's SHA-256 chain, each hash repeated. */
function executableLike(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0, i = 0; at < size; at += 128, i++) {
    const hash = createHash("sha256")
      .update(String(i % 5000))
      .digest();
    for (let k = 0; k < 4; k++) hash.copy(out, at + k * 32);
  }
  return out;
}

/** A store that counts what it is asked for. */
function countingStore() {
  const pieces = new Map<string, Buffer>();
  const counts = { hits: 0, compressed: 0 };
  const store: PieceStore = {
    get: (key) => {
      const packed = pieces.get(key);
      if (packed) counts.hits++;
      return packed;
    },
    put: (key, packed) => {
      counts.compressed++;
      pieces.set(key, packed);
    },
  };
  return { store, counts };
}

for (const [format, write, read] of [
  ["tar.gz", tarGz, untar],
  ["zip", zip, unzip],
] as const) {
  test(`${format}: a large file is deflated in pieces from its own start; an archive that shares them takes them from the store, and writes the same bytes as without one`, () => {
    const big = executableLike(3 * PIECE_SIZE + 12_345);
    const first: ArchiveEntry[] = [
      { path: "manifest.json", data: Buffer.from('{"name":"x"}\n'), mode: 0o644 },
      { path: "bin/x", data: big, mode: 0o755 },
    ];
    const changed = Buffer.from(big);
    changed[PIECE_SIZE + 7] = changed[PIECE_SIZE + 7]! ^ 0xff;
    const second: ArchiveEntry[] = [
      { path: "manifest.json", data: Buffer.from('{"name":"a longer name"}\n'), mode: 0o644 },
      { path: "bin/x", data: changed, mode: 0o755 },
    ];
    const { store, counts } = countingStore();
    const a = write(first, store);
    assert.ok(a.equals(write(first)), "the store changes no byte");
    assert.ok(a.length < big.length / 2, `${a.length} bytes: compressed`);
    const compressedFirst = counts.compressed;
    const b = write(second, store);
    assert.ok(b.equals(write(second)), "pieces from the store give the bytes compressing them again gives");
    assert.equal(counts.compressed - compressedFirst, 2, "the manifest's piece and the changed one");
    assert.equal(counts.hits, format === "zip" ? 3 : 4, "the executable's other pieces (and tar's end)");
    assert.ok(read(b)[1]!.data.equals(changed));
  });
}

test("system tar and Python's zipfile read the archives with the exec bit", async (t) => {
  if (!which("tar") || !which("python3")) return t.skip("tar or python3 missing");
  const dir = mkdtempSync(join(tmpdir(), "executa-archive-"));
  try {
    writeFileSync(join(dir, "a.tar.gz"), tarGz(entries));
    writeFileSync(join(dir, "a.zip"), zip(entries));
    const untarred = await exec("tar", ["-xzf", "a.tar.gz"], { cwd: dir });
    assert.equal(untarred.code, 0, untarred.stderr);
    assert.equal(statSync(join(dir, "bin/x")).mode & 0o777, 0o755);
    assert.ok(readFileSync(join(dir, "bin/x")).equals(entries[1]!.data));
    const py = await exec("python3", [
      "-c",
      "import zipfile,sys;z=zipfile.ZipFile(sys.argv[1]);print([(i.filename, oct(i.external_attr>>16&0o777)) for i in z.infolist()]);assert z.testzip() is None",
      join(dir, "a.zip"),
    ]);
    assert.equal(py.code, 0, py.stderr);
    assert.equal(py.stdout.trim(), "[('manifest.json', '0o644'), ('bin/x', '0o755')]");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
