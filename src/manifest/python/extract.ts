/** The Python extractor: helpers/python/extract_tools.py, run with the project's python3 (user code is never imported). */
import { join } from "node:path";
import { ExecutaError } from "../../common/errors.js";
import { HELPERS_DIR } from "../../common/package-info.js";
import { precomputedExtraction } from "../fallback/index.js";
import { runHelper, ToolchainMissing } from "../helper-run.js";
import { resolveToolHostCalls } from "../host-helpers.js";
import type { Extraction } from "../model.js";
import { projectPython, type SourceProject } from "../../project/index.js";

export const PYTHON_HELPER = join(HELPERS_DIR, "python", "extract_tools.py");

export async function extractPython(project: SourceProject, python?: string): Promise<Extraction> {
  const command = python ?? projectPython(project.dir) ?? "python3";
  try {
    const { hostCalls, ...out } = await runHelper(command, [PYTHON_HELPER, project.dir], project.dir, "Python extractor");
    return { ...out, ...resolveToolHostCalls("python", hostCalls), via: "python" };
  } catch (error) {
    if (!(error instanceof ToolchainMissing)) throw error;
    const fallback = precomputedExtraction(project);
    if (fallback) return fallback;
    throw new ExecutaError(`${command} was not found, so the Python tools cannot be read`, {
      hint: "install Python 3.10 or newer (or create .venv) and run `executa manifest` again",
    });
  }
}
