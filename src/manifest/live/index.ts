export { describeLaunch, liveManifest, manifestOfAnswer } from "./from-plugin.js";
