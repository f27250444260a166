/** The TypeScript extractor: the files under src/ that mention @tool -> tools and bindings. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { bindingsPath } from "../../project/index.js";
import { hasErrors, type Diagnostic } from "../../protocol/index.js";
import { resolveHostCalls } from "../host-helpers.js";
import type { Extraction, ToolBinding } from "../model.js";
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
  const bindings = join(projectDir, bindingsPath("ts"));
  return files.filter((f) => f !== bindings && readFileSync(f, "utf8").includes("@tool")).sort();
}

function modulePath(projectDir: string, file: string): string {
  let rel = relative(join(projectDir, "src"), join(projectDir, file)).split(sep).join("/");
  rel = rel
    .replace(/\.tsx?$/, ".js")
    .replace(/\.mts$/, ".mjs")
    .replace(/\.cts$/, ".cjs");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

const rel = (projectDir: string, file: string) => relative(projectDir, file).split(sep).join("/");

/** A file that is not UTF-8, located at its first bad byte (the compiler would read it with replacement characters). */
function encodingError(projectDir: string, file: string): Diagnostic | undefined {
  const bytes = readFileSync(file);
  // Valid UTF-8 survives decoding and encoding unchanged; the first byte that differs is the first bad one.
  const again = Buffer.from(bytes.toString("utf8"), "utf8");
  let at = 0;
  while (at < bytes.length && bytes[at] === again[at]) at++;
  if (at === bytes.length && again.length === bytes.length) return undefined;
  const before = bytes.subarray(0, at);
  const line = before.filter((b) => b === 0x0a).length + 1;
  const column = at - (before.lastIndexOf(0x0a) + 1) + 1;
  const bad =
    at < bytes.length
      ? `byte 0x${bytes[at]!.toString(16).padStart(2, "0")} cannot be decoded`
      : "it ends inside a character";
  return {
    severity: "error",
    message: `the file is not UTF-8: ${bad}`,
    hint: "save the file as UTF-8",
    file: rel(projectDir, file),
    line,
    column,
  };
}

export async function extractTypeScript(projectDir: string): Promise<Extraction> {
  const all = toolSourceFiles(projectDir);
  const encoding = all.map((f) => encodingError(projectDir, f));
  const files = all.filter((_, i) => !encoding[i]);
  // Loaded on demand: the compiler is large, and the other verbs never need it.
  const { readSources } = await import("./backend/index.js");
  const reading = readSources(projectDir, files);
  const diagnostics = [...encoding.filter((d): d is Diagnostic => d !== undefined), ...reading.diagnostics];
  if (reading.tools.length === 0 && !hasErrors(diagnostics)) {
    const read = all.length ? all.map((f) => rel(projectDir, f)).join(", ") : "no file under src/ mentions @tool";
    diagnostics.push({
      severity: "error",
      message: `no exported function has a @tool JSDoc tag (read: ${read})`,
      hint: "mark each tool function with /** Description. @tool */ and export it, or take the manifest from the running plugin: executa manifest --from-plugin -- <command>",
      file: all.length ? rel(projectDir, all[0]!) : existsSync(join(projectDir, "src")) ? "src" : "package.json",
      line: 1,
      column: 1,
    });
  }
  const { tools, locations } = mapTools(reading.tools, diagnostics);
  const bindings: ToolBinding[] = reading.tools.map((t) => ({
    tool: t.name,
    module: modulePath(projectDir, t.file),
    symbol: t.exportName,
    style: t.style,
    ...(t.style === "positional" && { params: t.params.map((p) => p.name) }),
  }));
  const hostCalls = reading.tools.map((t) => resolveHostCalls("ts", t.hostCalls));
  return { tools, locations, hostCalls, bindings, diagnostics, via: "typescript" };
}
