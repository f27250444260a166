export { extractPython, projectPython, PYTHON_HELPER } from "./extract.js";
export { pythonBindingsPath, renderPythonBindings } from "./bindings.js";
