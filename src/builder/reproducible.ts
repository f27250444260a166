/** `--reproducible-check`: the files of two builds compared byte for byte. */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";

export interface Difference {
  /** Path relative to the output folder. */
  file: string;
  /** Set when one build lacks the file. */
  missing?: "first" | "second";
  sizes?: [number, number];
  /** Where the first differing runs of bytes start (at most five). */
  offsets?: number[];
  /** How many bytes differ (over the common length). */
  differingBytes?: number;
}

const MAX_OFFSETS = 5;

/** Offsets where runs of differing bytes start, and how many bytes differ. */
export function byteDifferences(a: Buffer, b: Buffer): { offsets: number[]; count: number } {
  const offsets: number[] = [];
  let count = 0;
  let inRun = false;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) {
      count++;
      if (!inRun && offsets.length < MAX_OFFSETS) offsets.push(i);
      inRun = true;
    } else {
      inRun = false;
    }
  }
  if (a.length !== b.length && offsets.length < MAX_OFFSETS && !inRun) offsets.push(length);
  return { offsets, count };
}

/** byteDifferences over two files, a chunk at a time (artifacts are 100+ MiB). */
function fileDifferences(a: string, b: string): { offsets: number[]; count: number } {
  const size = 1 << 20;
  const [x, y] = [Buffer.alloc(size), Buffer.alloc(size)];
  const [fa, fb] = [openSync(a, "r"), openSync(b, "r")];
  const offsets: number[] = [];
  let count = 0;
  try {
    for (let base = 0; ; base += size) {
      const n = readSync(fa, x, 0, size, base);
      const m = readSync(fb, y, 0, size, base);
      if (n === 0 && m === 0) break;
      const chunk = byteDifferences(x.subarray(0, n), y.subarray(0, m));
      count += chunk.count;
      for (const o of chunk.offsets)
        if (offsets.length < MAX_OFFSETS && !offsets.includes(base + o)) offsets.push(base + o);
      if (n < size || m < size) break;
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
  return { offsets, count };
}

/** Compares `files` (relative paths) in two folders; returns every difference. */
export function compareBuilds(first: string, second: string, files: readonly string[]): Difference[] {
  const out: Difference[] = [];
  for (const file of files) {
    const a = join(first, file);
    const b = join(second, file);
    if (!existsSync(a) || !existsSync(b)) {
      out.push({ file, missing: existsSync(a) ? "second" : "first" });
      continue;
    }
    const sizes: [number, number] = [statSync(a).size, statSync(b).size];
    const { offsets, count } = fileDifferences(a, b);
    if (count === 0 && sizes[0] === sizes[1]) continue;
    out.push({ file, ...(sizes[0] !== sizes[1] && { sizes }), offsets, differingBytes: count });
  }
  return out;
}

export function describeDifference(d: Difference): string {
  if (d.missing) return `${d.file}: only the ${d.missing === "first" ? "second" : "first"} build wrote it`;
  const sizes = d.sizes ? `, ${d.sizes[0]} vs ${d.sizes[1]} bytes` : "";
  return `${d.file}: ${d.differingBytes} bytes differ${sizes}, first at offset${d.offsets!.length > 1 ? "s" : ""} ${d.offsets!.join(", ")}`;
}
