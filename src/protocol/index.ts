export * from "./codes.js";
export * from "./limits.js";
export * from "./platforms.js";
export * from "./capabilities.js";
export * from "./manifest.js";
export * from "./diagnostics.js";
export * from "./frames.js";
export * from "./validate.js";
