/**
 * What a test needs installed. `test(name, requires("go"), fn)` (or `describe`, or spread into other
 * options): when a tool is missing, outside CI the test is skipped, naming the tool and how to
 * install it; under CI (`CI` set) it fails with that hint instead, so a CI image without the tool
 * can never pass by skipping.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { platformVenv } from "./platform.js";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** This repository's node_modules/.bin (from dist/test/support). */
const NODE_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "node_modules", ".bin");

interface Tool {
  /** True when it is usable here. */
  present(): boolean;
  /** How to get it (what .ci/run does). */
  install: string;
}

const runs =
  (program: string, ...args: string[]) =>
  () =>
    spawnSync(program, args, { stdio: "ignore" }).status === 0;

export const TOOLS = {
  go: { present: runs("go", "version"), install: "install Go 1.21+ (https://go.dev/dl) and put it on PATH" },
  python3: { present: runs("python3", "--version"), install: "install Python 3.10+ as python3" },
  pytest: { present: runs("python3", "-m", "pytest", "--version"), install: "python3 -m pip install pytest" },
  pyinstaller: {
    present: runs("python3", "-m", "PyInstaller", "--version"),
    install: "python3 -m pip install pyinstaller",
  },
  uv: { present: runs("uv", "--version"), install: "python3 -m pip install uv" },
  git: { present: runs("git", "--version"), install: "install git" },
  chromium: {
    present: () => existsSync("/usr/bin/chromium"),
    install: "apt-get install chromium fonts-liberation (Debian's, at /usr/bin/chromium)",
  },
  qemu: {
    present: () => existsSync("/usr/bin/qemu-aarch64-static") && existsSync("/usr/aarch64-linux-gnu/lib"),
    install: "apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross",
  },
  shellcheck: { present: runs("shellcheck", "--version"), install: "apt-get install shellcheck" },
  script: {
    present: runs("script", "--version"),
    install: "apt-get install util-linux (script(1) gives a command a pseudo-terminal)",
  },
  platform: {
    present: () => platformVenv() !== undefined,
    install:
      "node scripts/install-platform.mjs (Anna's platform packages at data/platform-packages.json's pins, in a venv)",
  },
  pnpm: {
    present: runs(join(NODE_BIN, "pnpm"), "--version"),
    install: "npm ci (pnpm is a devDependency of this repository)",
  },
  yarn: {
    present: runs(join(NODE_BIN, "yarn"), "--version"),
    install: "npm ci (yarn is a devDependency of this repository)",
  },
  bun: {
    present: runs(join(NODE_BIN, "bun"), "--version"),
    install: "npm ci (bun is a devDependency of this repository)",
  },
  actionlint: {
    present: runs("actionlint", "--version"),
    install: "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 (and put $(go env GOPATH)/bin on PATH)",
  },
} satisfies Record<string, Tool>;

export type ToolName = keyof typeof TOOLS;

const known = new Map<ToolName, boolean>();
export function has(tool: ToolName): boolean {
  if (!known.has(tool)) known.set(tool, TOOLS[tool].present());
  return known.get(tool)!;
}

/** Test options for a test that needs these tools (see the file's comment). */
export function requires(...tools: ToolName[]): { skip?: string; signal?: AbortSignal } {
  const missing = tools.filter((t) => !has(t));
  if (missing.length === 0) return {};
  const reason = missing.map((t) => `${t} is not installed (${TOOLS[t].install})`).join("; ");
  if (process.env.CI) return { signal: AbortSignal.abort(new Error(`CI needs this test's tools: ${reason}`)) };
  return { skip: reason };
}

/**
 * For the part of a test that needs a tool the rest does not: true when it is here; otherwise
 * under CI it throws with the install hint, and elsewhere it skips the test naming the tool.
 */
export function optional(tool: ToolName, t: { skip(message?: string): void }): boolean {
  if (has(tool)) return true;
  const reason = `${tool} is not installed (${TOOLS[tool].install})`;
  if (process.env.CI) throw new Error(`CI needs this test's tools: ${reason}`);
  t.skip(reason);
  return false;
}
