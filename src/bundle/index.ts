export { bundle, BuildError } from "./bundle.js";
export { compileProject, typeCheck } from "./tsc.js";
