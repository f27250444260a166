export { bundle, BuildError, type BundleOptions, type BundleResult } from "./bundle.js";
