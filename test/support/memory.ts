/** A process's memory as Linux reports it in /proc/<pid>/status, for tests and benches. */
import { readFileSync } from "node:fs";

/** Resident memory now (VmRSS) and at its peak (VmHWM), in KiB; throws once the process is gone. */
export function memoryKiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/**
 * Samples a process every `everyMs` while it runs, keeping the highest of `measure` (peak: VmHWM,
 * rss: VmRSS) in MiB; the function it returns ends the sampling and gives that (0 if none was read).
 */
export function watchMemory(pid: number, everyMs: number, measure: "peak" | "rss" = "peak"): () => number {
  let highest = 0;
  const sample = () => {
    try {
      const kib = memoryKiB(pid)[measure];
      if (kib > 0) highest = Math.max(highest, kib / 1024);
    } catch {
      // it exited between samples
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return () => {
    clearInterval(timer);
    return highest;
  };
}
