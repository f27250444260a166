/**
 * The Python extractor: helpers/python/extract_tools.py reads the project's source with `ast`; the
 * project's code is never imported and nothing of the project runs. The interpreter is python3 from
 * PATH outside the project (never its .venv), started isolated: `-I` (no PYTHON* variable, no user
 * site-packages, neither the script's nor the current folder on sys.path), `-S` (no site module, so
 * no .pth file of any environment is processed), `-B` (no bytecode written), with every PYTHON*
 * variable left out of its environment, in the helper's own folder.
 */
import { dirname, join } from "node:path";
import { ExecutaError } from "../../common/errors.js";
import { HELPERS_DIR } from "../../common/package-info.js";
import { precomputedExtraction } from "../fallback/index.js";
import { helperEnv, runHelper, ToolchainMissing } from "../helper-run.js";
import { resolveToolHostCalls } from "../host-helpers.js";
import type { Extraction } from "../model.js";
import { toolchainPython, type SourceProject } from "../../project/index.js";

export const PYTHON_HELPER = join(HELPERS_DIR, "python", "extract_tools.py");

/** The interpreter flags of every run of the helper. */
export const PYTHON_ISOLATION = ["-I", "-S", "-B"];

export async function extractPython(project: SourceProject, python?: string): Promise<Extraction> {
  const command = python ?? toolchainPython(project.dir);
  try {
    if (!command) throw new ToolchainMissing("python3 was not found");
    const args = [...PYTHON_ISOLATION, PYTHON_HELPER, project.dir];
    // Started in the helper's folder: a version file of the project's (pyenv's .python-version) chooses nothing.
    const { hostCalls, ...out } = await runHelper(
      command,
      args,
      dirname(PYTHON_HELPER),
      "Python extractor",
      helperEnv(/^PYTHON/i),
    );
    return { ...out, ...resolveToolHostCalls("python", hostCalls), via: "python" };
  } catch (error) {
    if (!(error instanceof ToolchainMissing)) throw error;
    const fallback = precomputedExtraction(project);
    if (fallback) return fallback;
    throw new ExecutaError(
      `${command ?? "python3"} was not found${command ? "" : " outside the project"}, so the Python tools cannot be read`,
      {
        hint: "install Python 3.10 or newer as python3 on PATH (the manifest never uses the project's own .venv) and run `executa manifest` again",
      },
    );
  }
}
