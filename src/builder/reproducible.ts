/** `--reproducible-check`: the files of two builds compared byte for byte. */
import { existsSync, readFileSync } from "node:fs";
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
    const x = readFileSync(a);
    const y = readFileSync(b);
    if (x.equals(y)) continue;
    const { offsets, count } = byteDifferences(x, y);
    out.push({ file, ...(x.length !== y.length && { sizes: [x.length, y.length] as [number, number] }), offsets, differingBytes: count });
  }
  return out;
}

export function describeDifference(d: Difference): string {
  if (d.missing) return `${d.file}: only the ${d.missing === "first" ? "second" : "first"} build wrote it`;
  const sizes = d.sizes ? `, ${d.sizes[0]} vs ${d.sizes[1]} bytes` : "";
  return `${d.file}: ${d.differingBytes} bytes differ${sizes}, first at offset${d.offsets!.length > 1 ? "s" : ""} ${d.offsets!.join(", ")}`;
}
