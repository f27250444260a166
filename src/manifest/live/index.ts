export { describePlugin, type LiveDescribe } from "./describe.js";
export { describeLaunch, liveManifest, manifestOfAnswer, withDefaultName, type LiveManifest } from "./from-plugin.js";
