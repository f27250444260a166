/**
 * A Mach-O ad-hoc code signer: what Go's linker and `codesign --sign -` write, for thin 64-bit
 * little-endian Mach-O files. One SuperBlob holding one CodeDirectory (version 0x20400, flags
 * adhoc | linker-signed, SHA-256 of every 4 KiB page, exec segment = __TEXT). Apple Silicon refuses
 * to run unsigned code; this signature is enough for it, on any build host.
 */
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 2;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CD_VERSION = 0x20400;
const CD_FLAGS = 0x20002; // CS_ADHOC | CS_LINKER_SIGNED
const CS_HASHTYPE_SHA256 = 2;
const CS_EXECSEG_MAIN_BINARY = 1;
const PAGE_BITS = 12;
const PAGE_SIZE = 1 << PAGE_BITS;
const HASH_SIZE = 32;
const SUPERBLOB_SIZE = 12;
const BLOB_INDEX_SIZE = 8;
const CODE_DIRECTORY_SIZE = 88;
const SIGNATURE_ALIGN = 16;

export class MachOSignError extends Error {
  override name = "MachOSignError";
}

interface Segment {
  cmdOffset: number;
  name: string;
  fileoff: number;
  filesize: number;
  vmsize: number;
  sectionOffsets: number[];
}

interface Layout {
  filetype: number;
  ncmds: number;
  sizeofcmds: number;
  segments: Segment[];
  codeSignature?: { cmdOffset: number; dataoff: number; datasize: number };
}

function readLayout(buf: Buffer): Layout {
  if (buf.length < 32) throw new MachOSignError("file too small to be a Mach-O binary");
  const magic = buf.readUInt32LE(0);
  if (magic === 0xcafebabe || magic === 0xbebafeca) {
    throw new MachOSignError("a universal (fat) Mach-O file; only thin 64-bit Mach-O files can be signed");
  }
  if (magic !== MH_MAGIC_64) throw new MachOSignError("not a 64-bit little-endian Mach-O file");
  const filetype = buf.readUInt32LE(12);
  const ncmds = buf.readUInt32LE(16);
  const sizeofcmds = buf.readUInt32LE(20);
  const layout: Layout = { filetype, ncmds, sizeofcmds, segments: [] };
  let off = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(off);
    const cmdsize = buf.readUInt32LE(off + 4);
    if (cmdsize < 8 || off + cmdsize > 32 + sizeofcmds) throw new MachOSignError("corrupt load command table");
    if (cmd === LC_SEGMENT_64) {
      const nsects = buf.readUInt32LE(off + 64);
      const sectionOffsets: number[] = [];
      for (let s = 0; s < nsects; s++) {
        const sect = off + 72 + s * 80;
        const size = Number(buf.readBigUInt64LE(sect + 40));
        const offset = buf.readUInt32LE(sect + 48);
        const flags = buf.readUInt32LE(sect + 64);
        const zerofill = (flags & 0xff) === 0x1 || (flags & 0xff) === 0xc || (flags & 0xff) === 0x12;
        if (size > 0 && offset > 0 && !zerofill) sectionOffsets.push(offset);
      }
      layout.segments.push({
        cmdOffset: off,
        name: buf.toString("latin1", off + 8, off + 24).replace(/\0+$/, ""),
        vmsize: Number(buf.readBigUInt64LE(off + 32)),
        fileoff: Number(buf.readBigUInt64LE(off + 40)),
        filesize: Number(buf.readBigUInt64LE(off + 48)),
        sectionOffsets,
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      layout.codeSignature = {
        cmdOffset: off,
        dataoff: buf.readUInt32LE(off + 8),
        datasize: buf.readUInt32LE(off + 12),
      };
    }
    off += cmdsize;
  }
  return layout;
}

function alignUp(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/** The size of the ad-hoc signature of `codeSize` bytes signed with `identifier`. */
export function signatureSize(codeSize: number, identifier: string): number {
  const pages = Math.ceil(codeSize / PAGE_SIZE);
  return SUPERBLOB_SIZE + BLOB_INDEX_SIZE + CODE_DIRECTORY_SIZE + Buffer.byteLength(identifier) + 1 + pages * HASH_SIZE;
}

function writeSignature(out: Buffer, code: Buffer, identifier: string, text: Segment, isMain: boolean): void {
  const codeSize = code.length;
  const pages = Math.ceil(codeSize / PAGE_SIZE);
  const size = signatureSize(codeSize, identifier);
  const identOffset = CODE_DIRECTORY_SIZE;
  const hashOffset = identOffset + Buffer.byteLength(identifier) + 1;
  out.fill(0, 0, size);
  out.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  out.writeUInt32BE(size, 4);
  out.writeUInt32BE(1, 8);
  out.writeUInt32BE(CSSLOT_CODEDIRECTORY, 12);
  out.writeUInt32BE(SUPERBLOB_SIZE + BLOB_INDEX_SIZE, 16);
  const cd = SUPERBLOB_SIZE + BLOB_INDEX_SIZE;
  out.writeUInt32BE(CSMAGIC_CODEDIRECTORY, cd);
  out.writeUInt32BE(size - cd, cd + 4);
  out.writeUInt32BE(CD_VERSION, cd + 8);
  out.writeUInt32BE(CD_FLAGS, cd + 12);
  out.writeUInt32BE(hashOffset, cd + 16);
  out.writeUInt32BE(identOffset, cd + 20);
  out.writeUInt32BE(0, cd + 24); // special slots
  out.writeUInt32BE(pages, cd + 28);
  out.writeUInt32BE(codeSize > 0xffffffff ? 0 : codeSize, cd + 32);
  out.writeUInt8(HASH_SIZE, cd + 36);
  out.writeUInt8(CS_HASHTYPE_SHA256, cd + 37);
  out.writeUInt8(0, cd + 38);
  out.writeUInt8(PAGE_BITS, cd + 39);
  // spare2, scatterOffset, teamOffset, spare3 stay zero
  out.writeBigUInt64BE(codeSize > 0xffffffff ? BigInt(codeSize) : 0n, cd + 56);
  out.writeBigUInt64BE(BigInt(text.fileoff), cd + 64);
  out.writeBigUInt64BE(BigInt(text.filesize), cd + 72);
  out.writeBigUInt64BE(isMain ? BigInt(CS_EXECSEG_MAIN_BINARY) : 0n, cd + 80);
  out.write(identifier + "\0", cd + identOffset, "utf8");
  for (let p = 0; p < pages; p++) {
    const page = code.subarray(p * PAGE_SIZE, Math.min(codeSize, (p + 1) * PAGE_SIZE));
    createHash("sha256")
      .update(page)
      .digest()
      .copy(out, cd + hashOffset + p * HASH_SIZE);
  }
}

/**
 * Returns `binary` ad-hoc signed. An existing LC_CODE_SIGNATURE is reused (its signature replaced,
 * the file cut at its offset); otherwise one is added in the header padding and the signature is
 * appended to __LINKEDIT, which must then be the last thing in the file.
 */
export function adhocSign(binary: Buffer, identifier: string): Buffer {
  const layout = readLayout(binary);
  const text = layout.segments.find((s) => s.name === "__TEXT");
  const linkedit = layout.segments.find((s) => s.name === "__LINKEDIT");
  if (!text) throw new MachOSignError("no __TEXT segment");
  if (!linkedit) throw new MachOSignError("no __LINKEDIT segment");
  let header: Buffer;
  let codeLimit: number;
  let cmdOffset: number;
  if (layout.codeSignature) {
    ({ dataoff: codeLimit, cmdOffset } = layout.codeSignature);
    if (codeLimit > binary.length) throw new MachOSignError("LC_CODE_SIGNATURE points past the end of the file");
    header = Buffer.from(binary.subarray(0, codeLimit));
  } else {
    const linkeditEnd = linkedit.fileoff + linkedit.filesize;
    if (linkeditEnd !== binary.length) {
      throw new MachOSignError("__LINKEDIT is not at the end of the file; cannot append a signature");
    }
    const firstSection = Math.min(...layout.segments.flatMap((s) => s.sectionOffsets), binary.length);
    cmdOffset = 32 + layout.sizeofcmds;
    if (cmdOffset + 16 > firstSection) {
      throw new MachOSignError("no room in the Mach-O header padding for LC_CODE_SIGNATURE");
    }
    codeLimit = alignUp(linkeditEnd, SIGNATURE_ALIGN);
    header = Buffer.alloc(codeLimit);
    binary.copy(header);
    header.writeUInt32LE(LC_CODE_SIGNATURE, cmdOffset);
    header.writeUInt32LE(16, cmdOffset + 4);
    header.writeUInt32LE(codeLimit, cmdOffset + 8);
    header.writeUInt32LE(layout.ncmds + 1, 16);
    header.writeUInt32LE(layout.sizeofcmds + 16, 20);
  }
  const size = signatureSize(codeLimit, identifier);
  header.writeUInt32LE(size, cmdOffset + 12);
  const linkeditFilesize = codeLimit + size - linkedit.fileoff;
  header.writeBigUInt64LE(BigInt(linkeditFilesize), linkedit.cmdOffset + 48);
  if (linkedit.vmsize < linkeditFilesize) {
    header.writeBigUInt64LE(BigInt(alignUp(linkeditFilesize, 0x4000)), linkedit.cmdOffset + 32);
  }
  const out = Buffer.alloc(codeLimit + size);
  header.copy(out);
  writeSignature(out.subarray(codeLimit), header, identifier, text, layout.filetype === MH_EXECUTE);
  return out;
}

export interface SignatureCheck {
  identifier: string;
  flags: number;
  version: number;
  pages: number;
  /** Indexes of pages whose hash does not match the file. */
  badPages: number[];
  codeLimit: number;
  execSegBase: number;
  execSegLimit: number;
  execSegFlags: number;
}

/** Reads the ad-hoc signature of `binary` and recomputes every page hash. */
export function checkAdhocSignature(binary: Buffer): SignatureCheck {
  const layout = readLayout(binary);
  if (!layout.codeSignature) throw new MachOSignError("no LC_CODE_SIGNATURE");
  const { dataoff, datasize } = layout.codeSignature;
  const sig = binary.subarray(dataoff, dataoff + datasize);
  if (sig.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new MachOSignError("no embedded signature SuperBlob");
  const count = sig.readUInt32BE(8);
  let cd = -1;
  for (let i = 0; i < count; i++) {
    if (sig.readUInt32BE(12 + i * 8) === CSSLOT_CODEDIRECTORY) cd = sig.readUInt32BE(16 + i * 8);
  }
  if (cd < 0 || sig.readUInt32BE(cd) !== CSMAGIC_CODEDIRECTORY) throw new MachOSignError("no CodeDirectory");
  const hashOffset = sig.readUInt32BE(cd + 16);
  const identOffset = sig.readUInt32BE(cd + 20);
  const pages = sig.readUInt32BE(cd + 28);
  const codeLimit32 = sig.readUInt32BE(cd + 32);
  const hashSize = sig.readUInt8(cd + 36);
  const pageSize = 1 << sig.readUInt8(cd + 39);
  const codeLimit = codeLimit32 || Number(sig.readBigUInt64BE(cd + 56));
  const identEnd = sig.indexOf(0, cd + identOffset);
  const badPages: number[] = [];
  for (let p = 0; p < pages; p++) {
    const page = binary.subarray(p * pageSize, Math.min(codeLimit, (p + 1) * pageSize));
    const expected = sig.subarray(cd + hashOffset + p * hashSize, cd + hashOffset + (p + 1) * hashSize);
    if (!createHash("sha256").update(page).digest().subarray(0, hashSize).equals(expected)) badPages.push(p);
  }
  if (pages !== Math.ceil(codeLimit / pageSize)) badPages.push(-1);
  return {
    identifier: sig.toString("utf8", cd + identOffset, identEnd),
    version: sig.readUInt32BE(cd + 8),
    flags: sig.readUInt32BE(cd + 12),
    pages,
    badPages,
    codeLimit,
    execSegBase: Number(sig.readBigUInt64BE(cd + 64)),
    execSegLimit: Number(sig.readBigUInt64BE(cd + 72)),
    execSegFlags: Number(sig.readBigUInt64BE(cd + 80)),
  };
}

/** Whether `binary` is a thin 64-bit Mach-O file. */
export function isMachO64(binary: Buffer): boolean {
  return binary.length >= 4 && binary.readUInt32LE(0) === MH_MAGIC_64;
}
