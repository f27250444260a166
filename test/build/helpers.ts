/** Shared by the build tests: one runtime cache for every test file, fixtures copied to temp folders. */
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { which } from "../../src/common/exec.js";

/** The runtimes are fetched once per machine and reused by every test file and run. */
process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "test", "build", "fixtures");

/** A fresh copy of a fixture plugin (from the source tree, not dist/). */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `executa-${name}-`));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** Whether linux-aarch64 artifacts can run here (qemu-user and the arm64 libraries). */
export function canRunAarch64(): boolean {
  return process.platform === "linux" && process.arch === "x64" && Boolean(which("qemu-aarch64-static") ?? which("qemu-aarch64"));
}
