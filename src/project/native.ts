/** Native executables: which Anna platform a prebuilt binary is for, read from its header (ELF, Mach-O, PE). */
import { closeSync, openSync, readSync } from "node:fs";
import type { PlatformKey } from "../protocol/index.js";

const ELF_MACHINES: Record<number, PlatformKey> = { 62: "linux-x86_64", 183: "linux-aarch64", 40: "linux-armv7l" };
const MACHO_CPUS: Record<number, PlatformKey> = { 16777223: "darwin-x86_64", 16777228: "darwin-arm64" };
const PE_MACHINES: Record<number, PlatformKey> = { 34404: "windows-x86_64", 43620: "windows-arm64" };

function head(path: string, bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The platform of a native executable's header, or undefined (a script, a universal Mach-O, another machine). */
export function platformOfHeader(header: Buffer): PlatformKey | undefined {
  if (header.length >= 20 && header.readUInt32BE(0) === 0x7f454c46) {
    const machine = header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
    return ELF_MACHINES[machine];
  }
  if (header.length >= 8 && header.readUInt32LE(0) === 0xfeedfacf) return MACHO_CPUS[header.readUInt32LE(4)];
  if (header.length >= 0x40 && header.toString("latin1", 0, 2) === "MZ") {
    const pe = header.readUInt32LE(0x3c);
    if (pe + 6 > header.length || header.toString("latin1", pe, pe + 4) !== "PE\0\0") return undefined;
    return PE_MACHINES[header.readUInt16LE(pe + 4)];
  }
  return undefined;
}

/** The Anna platform a prebuilt executable file runs on, or undefined when it is not one we know. */
export function nativePlatformOf(path: string): PlatformKey | undefined {
  return platformOfHeader(head(path, 4096));
}
