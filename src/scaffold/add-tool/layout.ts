/**
 * Where `add tool` puts a tool and its test, per language: a new file for each, beside the
 * template's own, named after the tool (never a file the author wrote, so nothing is edited).
 */
import type { Language } from "../../project/index.js";
import { functionName } from "./names.js";

export interface ToolLayout {
  /** Project-relative paths with `/` separators. */
  tool: string;
  test: string;
  /** The file name without extension the tool's module has (Python: the module to import). */
  stem: string;
  /** Paths that must not exist either (a Python package of the module's name). */
  alsoFree: string[];
}

/** File names the Go tool treats specially: `_test`, `_<GOOS>`, `_<GOARCH>` suffixes build only in tests or on one platform. */
const GO_SUFFIXES = new Set([
  "test",
  "aix",
  "android",
  "darwin",
  "dragonfly",
  "freebsd",
  "hurd",
  "illumos",
  "ios",
  "js",
  "linux",
  "nacl",
  "netbsd",
  "openbsd",
  "plan9",
  "solaris",
  "wasip1",
  "windows",
  "zos",
  "386",
  "amd64",
  "amd64p32",
  "arm",
  "armbe",
  "arm64",
  "arm64be",
  "loong64",
  "mips",
  "mipsle",
  "mips64",
  "mips64le",
  "mips64p32",
  "mips64p32le",
  "ppc",
  "ppc64",
  "ppc64le",
  "riscv",
  "riscv64",
  "s390",
  "s390x",
  "sparc",
  "sparc64",
  "wasm",
]);

/** `getWeather` -> `get_weather`: Go file names are lower snake case. */
function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replaceAll("-", "_")
    .toLowerCase();
}

/** The Python module: not one the extractor skips (`test_*`, `*_test`, conftest) nor the generated bindings. */
function pythonStem(fn: string): string {
  let stem = fn;
  if (/^test_/.test(stem) || stem === "conftest" || stem === "executa_bindings") stem = `tool_${stem}`;
  return /_test$/.test(stem) ? `${stem}_tool` : stem;
}

function goStem(tool: string): string {
  const stem = snakeCase(tool);
  return GO_SUFFIXES.has(stem.split("_").pop()!) || stem === "executa_bindings" ? `${stem}_tool` : stem;
}

/** `packageDir`: the Python package's folder (project-relative), where its tools live. */
export function toolLayout(lang: Language, tool: string, packageDir = ""): ToolLayout {
  const fn = functionName(tool);
  switch (lang) {
    case "ts":
      return { tool: `src/tools/${fn}.ts`, test: `test/tools/${fn}.test.ts`, stem: fn, alsoFree: [] };
    case "python": {
      const stem = pythonStem(fn);
      const pkg = packageDir ? `${packageDir}/` : "";
      return { tool: `${pkg}${stem}.py`, test: `tests/test_${fn}.py`, stem, alsoFree: [`${pkg}${stem}`] };
    }
    case "go": {
      const stem = goStem(tool);
      return { tool: `${stem}.go`, test: `${stem}_test.go`, stem, alsoFree: [] };
    }
  }
}
