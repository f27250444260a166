/** Shared by the build tests: one runtime cache for every test file, fixtures copied to temp folders. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { which } from "../../src/common/exec.js";

/** The runtimes are fetched once per machine and reused by every test file and run. */
process.env.EXECUTA_CACHE_DIR ||= join(tmpdir(), "executa-test-cache");

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "test", "builder", "fixtures");

const TEMPLATES = join(FIXTURES, "..", "..", "..", "templates");

/**
 * A fresh copy of a fixture plugin (from the source tree, not dist/). Unless `tinyRuntime`, its
 * tiny runtime is swapped for the real one of templates/<lang> (which the conformance checks need);
 * the fixtures keep tiny runtimes of their own so that they compile before templates exist.
 */
export function copyFixture(name: string, options: { tinyRuntime?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `executa-${name}-`));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  if (!options.tinyRuntime) useTemplateRuntime(name, dir);
  return dir;
}

function useTemplateRuntime(name: string, dir: string): void {
  if (name === "ts-plugin") {
    cpSync(join(TEMPLATES, "ts", "src", "executa"), join(dir, "src", "executa"), { recursive: true });
    rmSync(join(dir, "src", "runtime.ts"));
    writeFileSync(join(dir, "src", "executa.bindings.ts"), [
      'import type { Bindings } from "./executa/index.js";',
      "",
      "export const bindings: Bindings = {",
      '  echo: { style: "args", load: async () => (await import("./tools.js")).echo },',
      "};",
      "",
    ].join("\n"));
    writeFileSync(join(dir, "src", "main.ts"), [
      'import manifest from "../manifest.json" with { type: "json" };',
      'import { bindings } from "./executa.bindings.js";',
      'import { run } from "./executa/index.js";',
      "",
      "run({ manifest, bindings });",
      "",
    ].join("\n"));
  } else if (name === "go-plugin") {
    cpSync(join(TEMPLATES, "go", "internal", "executa"), join(dir, "internal", "executa"), {
      recursive: true,
      filter: (src) => !/_test\.go(\.hbs)?$|executatest/.test(src),
    });
    writeFileSync(join(dir, "main.go"), [
      "package main",
      "",
      'import (\n\t"context"\n\t_ "embed"\n\t"os"\n\n\t"fixturego/internal/executa"\n)',
      "",
      "//go:embed manifest.json",
      "var manifestJSON []byte",
      "",
      'type EchoArgs struct {\n\tText string `json:"text"`\n}',
      "",
      'func Echo(_ context.Context, a EchoArgs) (map[string]any, error) { return map[string]any{"text": a.Text}, nil }',
      "",
      'var bindings = executa.Bindings{"echo": executa.Bind(Echo)}',
      "",
      "func main() { os.Exit(executa.Run(manifestJSON, bindings)) }",
      "",
    ].join("\n"));
  } else if (name === "py-plugin") {
    const pkg = join(dir, "fixture_py");
    cpSync(join(TEMPLATES, "python", "__pyModule__", "executa"), join(pkg, "executa"), { recursive: true });
    cpSync(join(TEMPLATES, "python", "__pyModule__", "__main__.py"), join(pkg, "__main__.py"));
    rmSync(join(pkg, "runtime.py"));
    writeFileSync(join(pkg, "tools.py"), 'def echo(text: str) -> dict:\n    """Echo the text back."""\n    return {"text": text}\n');
    writeFileSync(join(pkg, "executa_bindings.py"), 'def _tools():\n    from . import tools\n\n    return tools\n\n\nBINDINGS = {\n    "echo": lambda: _tools().echo,\n}\n');
  }
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** Whether linux-aarch64 artifacts can run here (qemu-user and the arm64 libraries). */
export function canRunAarch64(): boolean {
  return process.platform === "linux" && process.arch === "x64" && Boolean(which("qemu-aarch64-static") ?? which("qemu-aarch64"));
}
