export { bundle, BuildError, type BundleOptions, type BundleResult } from "./bundle.js";
export { compileProject, typeCheck, TypeErrors, TSCONFIG, type Compiled, type TypeCheck } from "./tsc.js";
