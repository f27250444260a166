import assert from "node:assert/strict";
import { test } from "node:test";
import { hostPlatformKey } from "../protocol/index.js";
import { nativePlatformOf, platformOfHeader } from "./native.js";

function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b[4] = 2;
  b[5] = 1;
  b.writeUInt16LE(machine, 18);
  return b;
}

function macho(cpu: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}

function pe(machine: number): Buffer {
  const b = Buffer.alloc(0x100);
  b.write("MZ", 0, "latin1");
  b.writeUInt32LE(0x80, 0x3c);
  b.write("PE\0\0", 0x80, "latin1");
  b.writeUInt16LE(machine, 0x84);
  return b;
}

test("the platform of an executable header: ELF, Mach-O and PE for every Anna platform; anything else is none", () => {
  assert.equal(platformOfHeader(elf(0x3e)), "linux-x86_64");
  assert.equal(platformOfHeader(elf(0xb7)), "linux-aarch64");
  assert.equal(platformOfHeader(elf(0x28)), "linux-armv7l");
  assert.equal(platformOfHeader(macho(0x0100000c)), "darwin-arm64");
  assert.equal(platformOfHeader(macho(0x01000007)), "darwin-x86_64");
  assert.equal(platformOfHeader(pe(0x8664)), "windows-x86_64");
  assert.equal(platformOfHeader(pe(0xaa64)), "windows-arm64");
  assert.equal(platformOfHeader(elf(0x08)), undefined, "a MIPS ELF is no Anna platform");
  assert.equal(platformOfHeader(Buffer.from("#!/bin/sh\necho hi\n")), undefined);
  assert.equal(platformOfHeader(Buffer.from("MZ")), undefined, "a truncated PE");
  assert.equal(platformOfHeader(Buffer.alloc(0)), undefined);
});

test("this machine's node is a native executable of this machine's platform", () => {
  assert.equal(nativePlatformOf(process.execPath), hostPlatformKey());
  assert.equal(nativePlatformOf("/nonexistent/executa"), undefined);
});
