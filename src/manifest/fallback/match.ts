import type { Extraction } from "../model.js";
import type { Project } from "../project.js";

export function precomputedExtraction(_project: Project): Extraction | undefined {
  return undefined;
}
