export { precomputedExtraction } from "./match.js";
