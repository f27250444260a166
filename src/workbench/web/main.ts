/** The page of `executa inspect`: loads the state, follows the event stream, and shows one view at a time. */
import type { InspectState } from "../inspect/wire.js";
import { get, openStream, type StreamEvent, type StreamHandlers } from "./api.js";
import { h } from "./dom.js";
import { store } from "./store.js";
import { conformanceView } from "./views/conformance.js";
import { header } from "./views/header.js";
import { mockView } from "./views/mock.js";
import { pendingPanel } from "./views/pending.js";
import { pluginView } from "./views/plugin.js";
import { sessionView } from "./views/session.js";
import { toolsView } from "./views/tools.js";
import { traceMetrics, traceView } from "./views/trace.js";

declare global {
  interface Window {
    /** For tests and the benchmark: the trace view's last render. */
    executaInspect?: { trace: typeof traceMetrics; ready: boolean };
  }
}

const TABS = [
  { id: "tools", label: "Tools", make: toolsView },
  { id: "trace", label: "Trace", make: traceView },
  { id: "mock", label: "Mock host", make: mockView },
  { id: "plugin", label: "Plugin", make: pluginView },
  { id: "conformance", label: "Conformance", make: conformanceView },
  { id: "session", label: "Export / import", make: sessionView },
] as const;

async function boot(): Promise<void> {
  window.executaInspect = { trace: traceMetrics, ready: false };
  performance.mark("executa-boot");
  // The stream first, then the state: events older than the state are dropped, newer ones applied.
  const apply: StreamHandlers = {
    trace: (entries) => store.addTrace(entries),
    plugin: (p) => store.set("plugin", p),
    host: (x) => store.set("host", x),
    watch: (w) => store.set("watch", w),
    credentials: (c) => store.set("credentials", c),
    pending: (p) => store.set("pending", p),
    progress: (p) => store.addProgress(p),
  };
  let loadedRev: number | undefined;
  let queue: StreamEvent[] = [];
  const handle = (e: StreamEvent) => (apply[e.name] as (d: unknown) => void)(e.data);
  const load = async () => {
    loadedRev = undefined;
    const state = await get<InspectState>("/api/state");
    store.load(state);
    loadedRev = state.rev;
    for (const e of queue) if (e.rev > state.rev) handle(e);
    queue = [];
  };
  // The stream is attached on the server once it opens: only a state loaded after that misses nothing.
  await new Promise<void>((resolve, reject) => {
    openStream(
      Object.keys(apply) as (keyof StreamHandlers)[],
      (e) => {
        if (loadedRev === undefined) queue.push(e);
        else if (e.rev > loadedRev) handle(e);
      },
      (on) => store.setConnected(on),
      () => void load().then(resolve, reject),
    );
  });
  performance.mark("executa-state");
  const views = new Map<string, HTMLElement & { setVisible?: (on: boolean) => void }>();
  const nav = h("nav", { class: "tabs", role: "tablist" });
  const main = h("main");
  const show = (id: string) => {
    const tab = TABS.find((t) => t.id === id) ?? TABS[0];
    let view = views.get(tab.id);
    if (!view) {
      view = tab.make();
      views.set(tab.id, view);
      main.appendChild(view);
    }
    for (const [vid, v] of views) {
      v.hidden = vid !== tab.id;
      v.setVisible?.(vid === tab.id);
    }
    for (const b of nav.querySelectorAll("button")) b.setAttribute("aria-selected", String(b.dataset.tab === tab.id));
    if (location.hash !== `#${tab.id}`) history.replaceState(null, "", `${location.pathname}#${tab.id}`);
  };
  for (const t of TABS)
    nav.appendChild(h("button", { type: "button", role: "tab", "data-tab": t.id, onclick: () => show(t.id) }, t.label));
  document.body.replaceChildren(header(), pendingPanel(), nav, main);
  show(location.hash.slice(1) || "tools");
  requestAnimationFrame(() => {
    performance.mark("executa-ready");
    window.executaInspect!.ready = true;
    document.body.dataset.ready = "true";
  });
}

boot().catch((error: Error) => {
  document.body.replaceChildren(
    h(
      "main",
      null,
      h("h1", null, "executa inspect"),
      h("p", { class: "error-line" }, `The page could not load: ${error.message}`),
      h("p", null, "Open a fresh link from the terminal where executa inspect runs (a link works once)."),
    ),
  );
});
