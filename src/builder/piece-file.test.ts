import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { tarGz, type ArchiveEntry } from "./archive/index.js";
import { PIECE_SIZE } from "./archive/pieces.js";
import { PieceFile, pieceFolder } from "./piece-file.js";

const root = mkdtempSync(join(tmpdir(), "executa-pieces-"));
after(() => rmSync(root, { recursive: true, force: true }));

const entries = (name: string): ArchiveEntry[] => [
  { path: "manifest.json", data: Buffer.from(`{"name":"${name}"}\n`), mode: 0o644 },
  { path: "bin/x", data: Buffer.alloc(2 * PIECE_SIZE + 99, "an executable, more or less "), mode: 0o755 },
];

test("the pieces of the last archive are kept per name and reused by the next one, which writes the same bytes", () => {
  const env = { EXECUTA_BUILD_CACHE_DIR: join(root, "kept") };
  const first = new PieceFile("node-sea-22.23.2-linux-x86_64", env);
  const a = tarGz(entries("a"), first);
  first.save();
  const file = join(pieceFolder(env), "node-sea-22.23.2-linux-x86_64.pieces");
  const saved = statSync(file);

  const same = new PieceFile("node-sea-22.23.2-linux-x86_64", env);
  assert.ok(tarGz(entries("a"), same).equals(a));
  same.save();
  assert.equal(statSync(file).mtimeMs, saved.mtimeMs, "every piece was kept: nothing to write");

  const other = new PieceFile("node-sea-22.23.2-linux-x86_64", env);
  const b = tarGz(entries("b"), other);
  assert.ok(b.equals(tarGz(entries("b"))));
  other.save();
  assert.ok(statSync(file).size < saved.size + 200, "the file holds the last archive's pieces, not every one seen");
  assert.equal(pieceFolder({ EXECUTA_CACHE_DIR: join(root, "cache") }), join(root, "cache", "build", "archive-pieces"));
});

test("a damaged piece is compressed again, and a file that cannot be read or written only costs time", () => {
  const env = { EXECUTA_BUILD_CACHE_DIR: join(root, "damaged") };
  const kept = new PieceFile("go-1.24.0-linux-x86_64", env);
  const expected = tarGz(entries("a"), kept);
  kept.save();
  const file = join(pieceFolder(env), "go-1.24.0-linux-x86_64.pieces");
  const bytes = readFileSync(file);
  bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
  writeFileSync(file, bytes);
  assert.ok(tarGz(entries("a"), new PieceFile("go-1.24.0-linux-x86_64", env)).equals(expected));

  writeFileSync(file, "not a piece file");
  assert.ok(tarGz(entries("a"), new PieceFile("go-1.24.0-linux-x86_64", env)).equals(expected));

  const blocked = { EXECUTA_BUILD_CACHE_DIR: join(file, "under-a-file") };
  const unwritable = new PieceFile("go-1.24.0-linux-x86_64", blocked);
  assert.ok(tarGz(entries("a"), unwritable).equals(expected));
  assert.doesNotThrow(() => unwritable.save());
});
