/** `executa build`'s options, declared once: the CLI parses them, BuildOptions is typed from them, the README's table is made from them. */
import type { OptionTable } from "../common/options.js";
import { PLATFORM_KEYS } from "../protocol/index.js";

export const BUILD_FLAGS = {
  target: {
    doc: "platform keys, comma-separated or repeated, or `all`; default this machine's. Keys: `darwin-arm64`, `darwin-x86_64`, `linux-x86_64`, `linux-aarch64`, `linux-armv7l`, `windows-x86_64`, `windows-arm64`",
    value: "<key,\u2026>",
    type: "string",
    array: true,
    describe: `Platform keys, comma-separated or repeated, or 'all' (default: this machine's). Keys: ${PLATFORM_KEYS.join(", ")}`,
  },
  runtime: {
    doc: "TypeScript: Node SEA (default) or `bun build --compile` with Bun runtimes from the npm packages `@oven/bun-<target>`",
    choices: ["node", "bun"] as const,
    default: "node" as const,
    describe: "TypeScript only: node (single executable application) or bun (bun build --compile)",
  },
  snapshot: {
    doc: "TypeScript/Node, this platform only: a V8 startup snapshot; tool modules load at build time, and `src/executa.snapshot.ts`, if present, runs there too",
    type: "boolean",
    default: false,
    describe: "TypeScript/node only: put a V8 startup snapshot in the executable (this machine's platform only)",
  },
  "code-cache": {
    type: "boolean",
    default: false,
    describe:
      "TypeScript/node only: put V8's code cache in this machine's target (starts a little faster; V8 writes it differently on every build, so that artifact is not reproducible)",
  },
  "python-layout": {
    choices: ["onedir", "onefile"] as const,
    describe:
      "Python only: PyInstaller's one-folder layout (default: starts without unpacking) or one file (unpacks itself on every start)",
  },
  "reproducible-check": {
    doc: "build a second time from a copy of the project in a temporary folder, with empty build caches (GOCACHE, PyInstaller's, executa's own), another TZ and another umask, and compare every output byte for byte; exit 1 listing each differing file with its byte offsets (the copy and its build are kept to inspect)",
    type: "boolean",
    default: false,
    describe:
      "Build a second time into a temporary folder and fail (exit 1) when any output differs, listing the files and byte offsets",
  },
  verify: {
    doc: "skip the checks on the artifacts (printed loudly)",
    type: "boolean",
    default: true,
    describe: "Run the conformance checks on every artifact this machine can run (--no-verify skips them)",
  },
  "base-url": {
    value: "<url>",
    type: "string",
    describe:
      "URL the archives will be served from: written into executa.json distribution.profiles.binary.binary_urls",
  },
  "out-dir": { value: "<dir>", type: "string", describe: "Output folder (default: <dir>/dist)" },
} as const satisfies OptionTable;
