/** `executa dev` and `executa inspect`: a plugin behind the mock host, for a person at a terminal or a page. */
export { Workbench, NO_INITIALIZE, HOST_PROTOCOLS, type WorkbenchOptions, type WorkbenchExchange, type HostProtocol, type InvokeCall, type SessionEvent } from "./workbench.js";
export { runRepl, runLine, complete, COMMANDS, type ReplOptions } from "./repl.js";
export { argumentsFromWords, coerceValue, splitWords } from "./coerce.js";
export { watchSources, isWatchedSource, type SourceWatcher } from "./watch.js";
export { startInspect, writeOpenerFile, type InspectOptions, type RunningInspect, type InspectServer, type OpenerFile } from "./inspect/index.js";
