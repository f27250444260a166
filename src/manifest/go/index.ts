export { extractGo, helperBinary as goHelperBinary, GO_HELPER_DIR, renderGoBindings } from "./extract.js";
