export { extractPython, PYTHON_HELPER } from "./extract.js";
export { renderPythonBindings } from "./bindings.js";
