import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { exec, which } from "../common/exec.js";
import { adhocSign, checkAdhocSignature, isMachO64, MachOSignError } from "./macho-sign.js";

const dir = mkdtempSync(join(tmpdir(), "executa-macho-"));
let goSigned: Buffer | undefined;
let goMissing = "";

before(async () => {
  if (!which("go")) {
    goMissing = "go is not installed";
    return;
  }
  writeFileSync(join(dir, "go.mod"), "module hello\n\ngo 1.21\n");
  writeFileSync(join(dir, "main.go"), 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n');
  const result = await exec("go", ["build", "-o", "hello", "."], {
    cwd: dir,
    env: { ...process.env, GOOS: "darwin", GOARCH: "arm64", CGO_ENABLED: "0", GOFLAGS: "-trimpath" },
  });
  assert.equal(result.code, 0, result.stderr);
  goSigned = readFileSync(join(dir, "hello"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The Go binary with its LC_CODE_SIGNATURE and signature removed, as postject leaves a binary. */
function unsign(signed: Buffer): Buffer {
  const ncmds = signed.readUInt32LE(16);
  const sizeofcmds = signed.readUInt32LE(20);
  let off = 32;
  let sigCmd = -1;
  let linkeditCmd = -1;
  for (let i = 0; i < ncmds; i++) {
    const cmd = signed.readUInt32LE(off);
    if (cmd === 0x1d) sigCmd = off;
    if (cmd === 0x19 && signed.toString("latin1", off + 8, off + 18) === "__LINKEDIT") linkeditCmd = off;
    off += signed.readUInt32LE(off + 4);
  }
  assert.ok(sigCmd > 0 && linkeditCmd > 0);
  assert.equal(sigCmd, 32 + sizeofcmds - 16, "Go puts LC_CODE_SIGNATURE last");
  const dataoff = signed.readUInt32LE(sigCmd + 8);
  const out = Buffer.from(signed.subarray(0, dataoff));
  out.fill(0, sigCmd, sigCmd + 16);
  out.writeUInt32LE(ncmds - 1, 16);
  out.writeUInt32LE(sizeofcmds - 16, 20);
  const fileoff = Number(out.readBigUInt64LE(linkeditCmd + 40));
  out.writeBigUInt64LE(BigInt(dataoff - fileoff), linkeditCmd + 48);
  return out;
}

test("re-signing a binary that Go's linker signed gives Go's bytes exactly", (t) => {
  if (!goSigned) return t.skip(goMissing);
  const before = checkAdhocSignature(goSigned);
  assert.equal(before.identifier, "a.out");
  const resigned = adhocSign(goSigned, before.identifier);
  assert.equal(resigned.length, goSigned.length);
  assert.ok(resigned.equals(goSigned), "re-signed bytes differ from Go's");
});

test("signing an unsigned binary adds LC_CODE_SIGNATURE and gives Go's bytes exactly", (t) => {
  if (!goSigned) return t.skip(goMissing);
  const unsigned = unsign(goSigned);
  assert.throws(() => checkAdhocSignature(unsigned), MachOSignError);
  const signed = adhocSign(unsigned, "a.out");
  assert.ok(signed.equals(goSigned), "added signature differs from Go's");
});

test("every page hash of a signed binary matches, and a changed byte is caught", (t) => {
  if (!goSigned) return t.skip(goMissing);
  const signed = adhocSign(unsign(goSigned), "my-plugin-darwin-arm64");
  const check = checkAdhocSignature(signed);
  assert.equal(check.identifier, "my-plugin-darwin-arm64");
  assert.equal(check.version, 0x20400);
  assert.equal(check.flags, 0x20002);
  assert.equal(check.execSegFlags, 1);
  assert.ok(check.execSegLimit > 0);
  assert.equal(check.pages, Math.ceil(check.codeLimit / 4096));
  assert.deepEqual(check.badPages, []);
  const tampered = Buffer.from(signed);
  tampered[5 * 4096 + 17] = tampered[5 * 4096 + 17]! ^ 0xff;
  assert.deepEqual(checkAdhocSignature(tampered).badPages, [5]);
});

test("refuses what it cannot sign", () => {
  assert.throws(() => adhocSign(Buffer.from("#!/bin/sh\necho hi\n".padEnd(64)), "x"), /not a 64-bit/);
  const fat = Buffer.alloc(64);
  fat.writeUInt32BE(0xcafebabe, 0);
  assert.throws(() => adhocSign(fat, "x"), /universal/);
  assert.equal(isMachO64(fat), false);
});
