/** `executa dev` and `executa inspect`: a plugin behind the mock host, for a person at a terminal or a page. */
export { Workbench } from "./workbench.js";
export { runRepl } from "./repl.js";
export { watchSources } from "./watch.js";
export {
  startInspect,
  writeOpenerFile,
  type RunningInspect,
  type InspectServer,
  type OpenerFile,
} from "./inspect/index.js";
