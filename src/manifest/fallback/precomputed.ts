/**
 * The precomputed extractions of the unchanged templates: generated data, kept in
 * data/generated/precomputed-extractions.json and rewritten by `npm run data:fallback`.
 */
import data from "../../../data/generated/precomputed-extractions.json" with { type: "json" };
import type { Language } from "../../project/index.js";
import type { Extraction } from "../model.js";

export interface PrecomputedTemplate {
  language: Language;
  /** The folder under templates/. */
  template: string;
  /** The template `create --template` chose (its files are under templates/<template>/variants/<variant>/). */
  variant: string;
  /** Every file the extractor reads: project path, template path, sha256 of the template file. */
  files: { path: string; template: string; sha256: string }[];
  extraction: Omit<Extraction, "via">;
}

/** The data file, project-relative (what the regenerator writes). */
export const PRECOMPUTED_FILE = "data/generated/precomputed-extractions.json";

export const PRECOMPUTED = data as unknown as PrecomputedTemplate[];
