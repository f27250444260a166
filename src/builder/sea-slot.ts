/**
 * postject parses and rewrites the whole runtime (over 100 MB) to inject a blob: 4-12 s of CPU per
 * target. So a target's runtime is injected once with a slot instead: a placeholder blob of a
 * fixed size, a power of two of at least 1 MiB. A build copies the prepared runtime and writes its
 * blob into the slot; the rest of the slot stays zeros, which Node never reads (its blob reader
 * reads the fields the blob's own header describes). The prepared runtime is kept in the build
 * cache, one per target, and checked by SHA-256 before use.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { signatureSet } from "portable-executable-signature";
import { ExecutaError } from "../common/errors.js";
import { PACKAGE_VERSION } from "../common/package-info.js";
import type { PlatformKey } from "../protocol/index.js";
import { buildCacheDir } from "./cache.js";
import type { FetchedFile } from "./npm-fetch.js";
import { isDarwin, isWindows } from "./targets/index.js";
import { sha256Of } from "./outputs.js";
import { writeAtomic } from "./write-atomic.js";

const SEA_SENTINEL_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const SEA_RESOURCE = "NODE_SEA_BLOB";
const SEA_MACHO_SEGMENT = "NODE_SEA";

const MIN_SLOT = 1 << 20;
/** The placeholder's first bytes, found again in the injected runtime to learn where the slot is. */
const MARKER = createHash("sha256").update("executa single-executable slot").digest();

/** The slot size for a blob of `length` bytes. */
export function slotSize(length: number): number {
  let size = MIN_SLOT;
  while (size < length) size *= 2;
  return size;
}

interface Slot {
  /** The prepared runtime's bytes (a copy of the cached file). */
  bytes: Buffer;
  /** Where the slot starts in them. */
  offset: number;
}

interface SlotRecord {
  /** The toolchain that prepared it (its postject and its slot layout). */
  toolchain: string;
  /** Of the runtime file as fetched. */
  runtime_sha256: string;
  size: number;
  offset: number;
  sha256: string;
}

/** The target's runtime as injection starts from it: without its Authenticode signature on Windows. */
function startingPoint(runtimePath: string, key: PlatformKey): Buffer {
  const runtime = readFileSync(runtimePath);
  return isWindows(key) ? Buffer.from(signatureSet(runtime, null, true, true)) : runtime;
}

/** Runs postject on `runtime` (written to `work` first) with `blob`; returns the injected bytes. */
async function postjectInto(runtime: Buffer, blob: Buffer, key: PlatformKey, work: string): Promise<Buffer> {
  writeAtomic(work, runtime);
  // postject's LIEF prints harmless section-name warnings through console.warn; keep them for errors.
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
  try {
    // Required when a slot is prepared, not imported with the module: postject is 5 MB of CommonJS.
    const { inject } = createRequire(import.meta.url)("postject") as typeof import("postject");
    await inject(work, SEA_RESOURCE, blob, {
      sentinelFuse: SEA_SENTINEL_FUSE,
      ...(isDarwin(key) && { machoSegmentName: SEA_MACHO_SEGMENT }),
    });
    return readFileSync(work);
  } catch (error) {
    throw new ExecutaError(
      `postject could not inject the blob into the ${key} runtime: ${(error as Error).message}${warnings.length ? ` (${warnings.slice(-2).join(" / ")})` : ""}`,
    );
  } finally {
    console.warn = warn;
    rmSync(work, { force: true });
  }
}

/** Injects a placeholder of `size` bytes and finds it again. */
async function prepare(runtime: Buffer, key: PlatformKey, size: number, work: string): Promise<Slot> {
  const placeholder = Buffer.alloc(size);
  MARKER.copy(placeholder);
  const bytes = await postjectInto(runtime, placeholder, key, work);
  const offset = bytes.indexOf(MARKER);
  if (
    offset < 0 ||
    bytes.lastIndexOf(MARKER) !== offset ||
    !bytes.subarray(offset, offset + size).equals(placeholder)
  ) {
    throw new ExecutaError(`postject did not keep the ${key} runtime's blob in one piece`, {
      hint: "report it with the target and the postject version: the runtime's layout is not one executa knows",
    });
  }
  return { bytes, offset };
}

/** The prepared runtime for `key` with a slot of `size` bytes: from the build cache, else made and kept there. */
async function preparedRuntime(runtime: FetchedFile, key: PlatformKey, size: number, work: string): Promise<Slot> {
  const folder = join(buildCacheDir(), "sea-slots");
  const file = join(folder, `${key}.bin`);
  const recordFile = join(folder, `${key}.json`);
  try {
    const record = JSON.parse(readFileSync(recordFile, "utf8")) as SlotRecord;
    if (record.toolchain === PACKAGE_VERSION && record.runtime_sha256 === runtime.sha256 && record.size === size) {
      const bytes = readFileSync(file);
      const { offset } = record;
      if (sha256Of(bytes) === record.sha256 && bytes.subarray(offset, offset + MARKER.length).equals(MARKER))
        return { bytes, offset };
    }
  } catch {
    // Not prepared yet, or unreadable: prepare it again.
  }
  const slot = await prepare(startingPoint(runtime.path, key), key, size, work);
  const record: SlotRecord = {
    toolchain: PACKAGE_VERSION,
    runtime_sha256: runtime.sha256,
    size,
    offset: slot.offset,
    sha256: sha256Of(slot.bytes),
  };
  try {
    writeAtomic(file, slot.bytes);
    writeAtomic(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  } catch {
    // A cache that cannot be written costs the next build time, never its bytes.
  }
  return slot;
}

/**
 * The target's runtime with `blob` injected: the prepared runtime for the blob's slot size, the
 * blob written into its slot. `work` is a temporary file path postject may use.
 */
export async function runtimeWithBlob(
  runtime: FetchedFile,
  blob: Buffer,
  key: PlatformKey,
  work: string,
): Promise<Buffer> {
  const size = slotSize(blob.length);
  const { bytes, offset } = await preparedRuntime(runtime, key, size, work);
  bytes.fill(0, offset, offset + size);
  blob.copy(bytes, offset);
  return bytes;
}
