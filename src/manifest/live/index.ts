export { describePlugin, type LiveDescribe } from "./describe.js";
