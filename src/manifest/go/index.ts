export { extractGo, helperBinary as goHelperBinary, GO_BINDINGS_PATH, GO_HELPER_DIR, renderGoBindings } from "./extract.js";
