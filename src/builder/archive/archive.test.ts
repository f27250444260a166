import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { exec, which } from "../../common/exec.js";
import { crc32, tarGz, untar, unzip, zip, type ArchiveEntry } from "./index.js";

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

test("crc32 is the standard one", () => {
  assert.equal(crc32(Buffer.from("123456789")), 0xcbf43926);
});

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
