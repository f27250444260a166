export { extractPython, PYTHON_HELPER } from "./extract.js";
export { pythonBindingsPath, renderPythonBindings } from "./bindings.js";
