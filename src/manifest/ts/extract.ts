/** The TypeScript extractor: the files under src/ that mention @tool -> tools and bindings. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Extraction, ToolBinding } from "../model.js";
import { TS_BINDINGS_PATH } from "./bindings.js";
import { mapTools } from "./map.js";

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(["node_modules", "dist", "build", "coverage", "test", "tests", "__tests__", ".git"]);

function listSources(dir: string, root: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name) || entry.name.startsWith(".")) continue;
      // The vendored runtime.
      if (relative(root, path).split(sep).join("/") === "src/executa") continue;
      listSources(path, root, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") && !/\.test\.[cm]?tsx?$/.test(entry.name)) {
      out.push(path);
    }
  }
}

/** The project's tool source files: every TS file under src/ (or the project, without src/) that mentions @tool. */
export function toolSourceFiles(projectDir: string): string[] {
  const src = join(projectDir, "src");
  const files: string[] = [];
  listSources(existsSync(src) ? src : projectDir, projectDir, files);
  const bindings = join(projectDir, TS_BINDINGS_PATH);
  return files.filter((f) => f !== bindings && readFileSync(f, "utf8").includes("@tool")).sort();
}

function modulePath(projectDir: string, file: string): string {
  let rel = relative(join(projectDir, "src"), join(projectDir, file)).split(sep).join("/");
  rel = rel.replace(/\.tsx?$/, ".js").replace(/\.mts$/, ".mjs").replace(/\.cts$/, ".cjs");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export async function extractTypeScript(projectDir: string): Promise<Extraction> {
  const files = toolSourceFiles(projectDir);
  // Loaded on demand: the compiler is large, and the other verbs never need it.
  const { readSources } = await import("./backend/index.js");
  const reading = readSources(projectDir, files);
  const diagnostics = [...reading.diagnostics];
  const { tools, locations } = mapTools(reading.tools, diagnostics);
  const bindings: ToolBinding[] = reading.tools.map((t) => ({
    tool: t.name,
    module: modulePath(projectDir, t.file),
    symbol: t.exportName,
    style: t.style,
    ...(t.style === "positional" && { params: t.params.map((p) => p.name) }),
  }));
  return { tools, locations, bindings, diagnostics, via: "typescript" };
}
