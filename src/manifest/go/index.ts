export { extractGo, helperBinary as goHelperBinary, renderGoBindings } from "./extract.js";
