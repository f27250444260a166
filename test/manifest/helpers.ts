/** Temporary plugin projects for the manifest tests. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The runtime types a TS project carries in src/executa/ (the part the extractor looks at). */
export const TS_RUNTIME = `export type Integer = number & { readonly __integer?: never };
export interface ToolContext { readonly tool: string; credential(name: string): string | undefined }
export type Bindings = Record<string, unknown>;
`;

export function executaJson(type: "node" | "python" | "go", extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      tool_id: "tool-dev-fixture",
      type,
      version: "1.0.0",
      display_name: "Fixture",
      description: "A fixture plugin.",
      ...extra,
    },
    null,
    2,
  );
}

export function writeProject(
  files: Record<string, string>,
  dir = mkdtempSync(join(tmpdir(), "executa-manifest-")),
): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

export function tsProject(files: Record<string, string>, executa: Record<string, unknown> = {}): string {
  return writeProject({
    "executa.json": executaJson("node", executa),
    "package.json": JSON.stringify({ name: "fixture", version: "1.0.0", type: "module" }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true },
    }),
    "src/executa/index.ts": TS_RUNTIME,
    ...files,
  });
}

/** `file:line:col` of the first occurrence of `needle` in `source` (1-based, as diagnostics count). */
export function whereIs(file: string, source: string, needle: string): string {
  const at = source.indexOf(needle);
  if (at < 0) throw new Error(`${needle} is not in ${file}`);
  const before = source.slice(0, at);
  return `${file}:${before.split("\n").length}:${at - before.lastIndexOf("\n")}`;
}
