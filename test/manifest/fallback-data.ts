/** Builds the precomputed fallback data from a freshly scaffolded template, with the real extractor. */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEMPLATES_DIR } from "../../src/common/package-info.js";
import { GO_MODULE, sha256 } from "../../src/manifest/fallback/match.js";
import { TEMPLATE_PY_MODULE } from "../../src/project/index.js";
import type { PrecomputedTemplate } from "../../src/manifest/fallback/precomputed.js";
import { extractGo } from "../../src/manifest/go/index.js";
import type { Extraction } from "../../src/manifest/model.js";
import { loadProject } from "../../src/project/index.js";
import { extractPython } from "../../src/manifest/python/index.js";
import { extractorInputs } from "../../src/manifest/source-files.js";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";
import { TEMPLATE_NAMES, type TemplateName } from "../../src/project/index.js";

export { TEMPLATE_NAMES, type TemplateName };

export const FALLBACK_LANGUAGES = ["python", "go"] as const;
export type FallbackLanguage = (typeof FALLBACK_LANGUAGES)[number];

export function templateExists(lang: FallbackLanguage): boolean {
  const dir = join(TEMPLATES_DIR, lang);
  return existsSync(dir) && readdirSync(dir).length > 0;
}

/** Scaffolds the template (no install, no git) and returns the project dir and its spec. */
export async function scaffoldTemplate(
  lang: FallbackLanguage,
  name: string,
  goModule?: string,
  template: TemplateName = "examples",
) {
  const targetDir = join(mkdtempSync(join(tmpdir(), "executa-fallback-")), name);
  const spec = makeSpec({ lang, name, template, ...(goModule && { goModule }) });
  await scaffold({ targetDir, spec, install: false, git: false, quiet: true });
  return { dir: targetDir, spec };
}

/** A fresh extraction with the language's real toolchain. */
export async function freshExtraction(dir: string): Promise<Extraction> {
  const project = loadProject(dir);
  return project.language === "python" ? extractPython(project) : extractGo(project);
}

/** The template file a project file comes from: the variant's own first, then the shared project's. */
function templateFile(lang: FallbackLanguage, variant: TemplateName, base: string): string {
  const candidates = [`variants/${variant}/${base}.hbs`, `variants/${variant}/${base}`, `${base}.hbs`, base];
  return candidates.find((c) => existsSync(join(TEMPLATES_DIR, lang, c)))!;
}

/** Every template's entry, in the data file's order (languages, then variants). */
export async function computeAll(): Promise<PrecomputedTemplate[]> {
  const entries: PrecomputedTemplate[] = [];
  for (const lang of FALLBACK_LANGUAGES)
    if (templateExists(lang)) for (const variant of TEMPLATE_NAMES) entries.push(await computeEntry(lang, variant));
  return entries;
}

/** The data file's text: the entries as JSON, two-space indented (the format the file keeps). */
export function renderPrecomputed(entries: readonly PrecomputedTemplate[]): string {
  return JSON.stringify(entries, null, 2) + "\n";
}

export async function computeEntry(lang: FallbackLanguage, variant: TemplateName): Promise<PrecomputedTemplate> {
  const { dir, spec } = await scaffoldTemplate(lang, "fallback-probe", "example.com/fallback-probe", variant);
  const { via: _via, ...extraction } = await freshExtraction(dir);
  const files = extractorInputs(dir, lang).map((path) => {
    const base = lang === "python" ? path.replace(new RegExp(`^${spec.pyModule}/`), `${TEMPLATE_PY_MODULE}/`) : path;
    const template = templateFile(lang, variant, base);
    return { path: base, template, sha256: sha256(readFileSync(join(TEMPLATES_DIR, lang, template))) };
  });
  let text = JSON.stringify(extraction).replaceAll(spec.goModule, GO_MODULE);
  if (lang === "python")
    text = text
      .replaceAll(`"${spec.pyModule}`, `"${TEMPLATE_PY_MODULE}`)
      .replaceAll(`${spec.pyModule}/`, `${TEMPLATE_PY_MODULE}/`);
  return {
    language: lang,
    template: lang,
    variant,
    files,
    extraction: JSON.parse(text) as PrecomputedTemplate["extraction"],
  };
}
