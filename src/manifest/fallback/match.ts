/**
 * The precomputed fallback: when python3 or go is missing on the machine that scaffolds, a
 * project whose tool sources are still exactly the template's (every file the extractor would
 * read matches its template, placeholders aside) gets the tools and bindings extracted from those
 * very sources ahead of time (data/generated/precomputed-extractions.json). test/manifest/fallback.test.ts proves the data
 * equals a fresh extraction of a freshly scaffolded template, and that the template hashes
 * recorded here are the current ones, so the data cannot go stale silently.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TEMPLATES_DIR } from "../../common/package-info.js";
import type { Extraction } from "../model.js";
import { TEMPLATE_PY_MODULE, type SourceProject } from "../../project/index.js";
import { extractorInputs } from "../source-files.js";
import { PRECOMPUTED, type PrecomputedTemplate } from "./precomputed.js";

export const GO_MODULE = "__goModule__";

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

const SUBSTITUTION = /\{\{\{?[^}\n]*\}?\}\}/;

/** One line against one template line whose substitutions are free text: each literal part at its leftmost place after the previous one (optimal for such a pattern, and linear). */
function lineMatches(line: string, parts: readonly string[]): boolean {
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!line.startsWith(first)) return false;
  if (parts.length === 1) return line.length === first.length;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = line.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return line.length - last.length >= at && line.endsWith(last);
}

/**
 * True when `content` is the template with each `{{...}}` replaced by one line's worth of anything
 * (a template with blocks or partials never matches). Compared line by line, in
 * time linear in the content, whatever it holds.
 */
export function matchesTemplateText(content: string, template: string): boolean {
  if (/\{\{[#/^>]/.test(template)) return false;
  const lines = content.split("\n");
  const templateLines = template.split("\n");
  return (
    lines.length === templateLines.length &&
    templateLines.every((t, i) => lineMatches(lines[i]!, t.split(SUBSTITUTION)))
  );
}

function matchesTemplate(content: string, templatePath: string): boolean {
  const raw = readFileSync(templatePath, "utf8");
  return templatePath.endsWith(".hbs") ? matchesTemplateText(content, raw) : raw === content;
}

function substitute(text: string, pyModule: string, goModule: string): string {
  return text.replaceAll(TEMPLATE_PY_MODULE, pyModule).replaceAll(GO_MODULE, goModule);
}

/** The template's files mapped onto the project's, or undefined when the sets differ. */
function projectPaths(entry: PrecomputedTemplate, inputs: string[]): { pyModule: string } | undefined {
  const candidates = entry.files.some((f) => f.path.includes(TEMPLATE_PY_MODULE))
    ? [...new Set(inputs.map((p) => p.split("/")[0]!))]
    : [""];
  for (const pyModule of candidates) {
    const expected = entry.files.map((f) => f.path.replaceAll(TEMPLATE_PY_MODULE, pyModule)).sort();
    if (expected.length === inputs.length && expected.every((p, i) => p === inputs[i])) return { pyModule };
  }
  return undefined;
}

export function precomputedExtraction(project: SourceProject): Extraction | undefined {
  for (const entry of PRECOMPUTED.filter((e) => e.language === project.language)) {
    const extraction = entryExtraction(entry, project);
    if (extraction) return extraction;
  }
  return undefined;
}

function entryExtraction(entry: PrecomputedTemplate, project: SourceProject): Extraction | undefined {
  const mapped = projectPaths(entry, extractorInputs(project.dir, project.language));
  if (!mapped) return undefined;
  for (const file of entry.files) {
    const templatePath = join(TEMPLATES_DIR, entry.template, file.template);
    if (!existsSync(templatePath) || sha256(readFileSync(templatePath)) !== file.sha256) return undefined;
    const content = readFileSync(join(project.dir, file.path.replaceAll(TEMPLATE_PY_MODULE, mapped.pyModule)), "utf8");
    if (!matchesTemplate(content, templatePath)) return undefined;
  }
  const goModule = project.goMod?.module ?? "";
  const data = JSON.parse(substitute(JSON.stringify(entry.extraction), mapped.pyModule, goModule)) as Omit<
    Extraction,
    "via"
  >;
  return { ...data, via: `precomputed data for the unchanged ${entry.template} ${entry.variant} template` };
}
