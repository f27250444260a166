/**
 * The Trace view: every frame with its time and size, invokes with their reverse requests nested,
 * stderr interleaved, filters and search, and the selected frame in full. Only the rows in sight
 * are in the DOM, so 10,000 frames scroll and filter without a pause.
 */
import type { TraceDirection, TraceEntry } from "../../inspect/wire.js";
import { formatBytes, h, fill, prettyJson } from "../dom.js";
import { store } from "../store.js";
import { buildRows, type Row, type TraceFilter } from "../trace-model.js";

const ROW_HEIGHT = 24;
const OVERSCAN = 12;
const DIRS: { dir: TraceDirection; label: string }[] = [
  { dir: "send", label: "host → plugin" },
  { dir: "recv", label: "plugin → host" },
  { dir: "stderr", label: "stderr" },
  { dir: "noise", label: "not frames" },
  { dir: "event", label: "events" },
];
const ARROW: Record<TraceDirection, string> = { send: "→", recv: "←", stderr: "!", noise: "?", event: "•" };

/** The last render's size and time, for the benchmark and the curious. */
export const traceMetrics = { rows: 0, entries: 0, ms: 0, renders: 0 };

function what(e: TraceEntry): string {
  if (e.dir === "stderr") return "stderr";
  if (e.dir === "event") return "event";
  if (e.dir === "noise") return "not a frame";
  const who = e.reverse ? (e.dir === "recv" ? "reverse " : "host answer ") : "";
  return `${who}${e.kind ?? "frame"}${e.method ? ` ${e.method}` : ""}`;
}

export function traceView(): HTMLElement {
  const filter: { dirs: Set<TraceDirection>; query: string; invokeId?: string } = {
    dirs: new Set(DIRS.map((d) => d.dir)),
    query: "",
  };
  const collapsed = new Set<string>();
  let rows: Row[] = [];
  let selected: number | undefined;
  let follow = true;
  let visible = false;
  let dirty = true;

  const spacer = h("div", { class: "spacer" });
  const list = h("div", { class: "trace-list", role: "list", tabindex: 0 }, spacer);
  const details = h("div", { class: "trace-details" }, h("p", { class: "muted" }, "select a frame to see it whole"));
  const count = h("span", { class: "muted count" });
  const search = h("input", {
    type: "search",
    placeholder: "search frames, methods, invoke ids",
    "aria-label": "search the trace",
  });
  const invokeChip = h("span", { class: "chip", hidden: true });
  const followBox = h("input", { type: "checkbox", checked: true, id: "trace-follow" });

  const renderDetails = () => {
    const e = selected !== undefined ? store.trace.find((x) => x.n === selected) : undefined;
    if (!e) return fill(details, h("p", { class: "muted" }, "select a frame to see it whole"));
    fill(
      details,
      h(
        "div",
        { class: "meta" },
        `#${e.n} · ${(e.t / 1000).toFixed(3)} s · session ${e.session} · ${e.dir} · ${formatBytes(e.bytes)}`,
        e.method ? ` · ${e.method}` : "",
        e.id !== undefined ? ` · id ${JSON.stringify(e.id)}` : "",
        e.invokeId
          ? h(
              "button",
              { type: "button", class: "link", onclick: () => showInvoke(e.invokeId) },
              ` invoke ${e.invokeId}`,
            )
          : null,
        e.answeredBy ? ` · answered by ${e.answeredBy}` : "",
        e.fileTransport
          ? ` · file transport${e.fileBytes !== undefined ? `, ${formatBytes(e.fileBytes)} in the file` : ""}`
          : "",
      ),
      h("pre", { class: "frame-text" }, e.dir === "stderr" || e.dir === "event" ? e.text : prettyJson(e.text)),
    );
  };

  const rowEl = (row: Row, index: number) => {
    const e = row.entry;
    const el = h(
      "div",
      {
        class: `row dir-${e.dir}${row.depth ? " nested" : ""}${e.reverse ? " reverse" : ""}${e.n === selected ? " selected" : ""}`,
        role: "listitem",
        "data-n": e.n,
        "data-dir": e.dir,
        "data-depth": row.depth,
        ...(e.method && { "data-method": e.method }),
        ...(e.invokeId && { "data-invoke": e.invokeId }),
        onclick: () => {
          selected = e.n;
          renderDetails();
          draw();
        },
      },
      row.children !== undefined
        ? h(
            "button",
            {
              type: "button",
              class: "twist",
              title: row.collapsed ? "show its frames" : "hide its frames",
              onclick: (ev: Event) => {
                ev.stopPropagation();
                if (collapsed.has(e.invokeId!)) collapsed.delete(e.invokeId!);
                else collapsed.add(e.invokeId!);
                refresh();
              },
            },
            `${row.collapsed ? "▸" : "▾"} ${row.children}`,
          )
        : h("span", { class: "twist" }),
      h("span", { class: "time" }, (e.t / 1000).toFixed(3)),
      h("span", { class: "arrow" }, ARROW[e.dir]),
      h("span", { class: "what" }, what(e)),
      h("span", { class: "size" }, formatBytes(e.bytes)),
      e.answeredBy ? h("span", { class: `badge by-${e.answeredBy}` }, e.answeredBy) : null,
      e.fileTransport
        ? h("span", { class: "badge file" }, e.fileBytes !== undefined ? `file ${formatBytes(e.fileBytes)}` : "file")
        : null,
      h("span", { class: "text" }, e.text.slice(0, 240)),
    );
    el.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
    return el;
  };

  /** Puts the rows in sight (and a few around) into the DOM. */
  const draw = () => {
    const top = list.scrollTop;
    const height = list.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const els: HTMLElement[] = [];
    for (let i = first; i < last; i++) els.push(rowEl(rows[i]!, i));
    spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    list.replaceChildren(spacer, ...els);
  };

  /** Rebuilds the rows from the entries and the filter, then draws. */
  const refresh = () => {
    const started = performance.now();
    const entries = store.trace;
    rows = buildRows(entries, filter as TraceFilter, collapsed);
    const dropped = store.state.traceDropped;
    count.textContent = `${rows.length} of ${entries.length} frames${dropped ? ` (${dropped} older dropped)` : ""}`;
    draw();
    if (follow) list.scrollTop = list.scrollHeight;
    dirty = false;
    Object.assign(traceMetrics, {
      rows: rows.length,
      entries: entries.length,
      ms: Math.round((performance.now() - started) * 10) / 10,
      renders: traceMetrics.renders + 1,
    });
  };

  let queued = false;
  const schedule = () => {
    dirty = true;
    if (!visible || queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (dirty) refresh();
    });
  };

  const showInvoke = (invokeId: string | undefined) => {
    filter.invokeId = invokeId;
    invokeChip.hidden = invokeId === undefined;
    fill(
      invokeChip,
      `invoke ${invokeId ?? ""} `,
      h(
        "button",
        { type: "button", class: "small", "aria-label": "show every invoke", onclick: () => showInvoke(undefined) },
        "×",
      ),
    );
    refresh();
  };

  list.addEventListener("scroll", () => {
    follow = list.scrollTop + list.clientHeight >= list.scrollHeight - ROW_HEIGHT * 2;
    followBox.checked = follow;
    requestAnimationFrame(draw);
  });
  followBox.addEventListener("change", () => {
    follow = followBox.checked;
    if (follow) list.scrollTop = list.scrollHeight;
  });
  search.addEventListener("input", () => {
    filter.query = search.value;
    refresh();
  });
  store.on("trace", schedule);

  const toolbar = h(
    "div",
    { class: "trace-toolbar" },
    search,
    DIRS.map(({ dir, label }) => {
      const box = h("input", { type: "checkbox", checked: true, "data-dir": dir });
      box.addEventListener("change", () => {
        if (box.checked) filter.dirs.add(dir);
        else filter.dirs.delete(dir);
        refresh();
      });
      return h("label", { class: "check" }, box, label);
    }),
    h(
      "button",
      {
        type: "button",
        class: "small",
        onclick: () => {
          for (const r of rows) if (r.children !== undefined) collapsed.add(r.entry.invokeId!);
          refresh();
        },
      },
      "collapse all",
    ),
    h("button", { type: "button", class: "small", onclick: () => (collapsed.clear(), refresh()) }, "expand all"),
    h("label", { class: "check", for: "trace-follow" }, followBox, "follow"),
    invokeChip,
    count,
  );

  const view = h("section", { class: "view trace-view", "data-view": "trace" }, toolbar, list, details);
  return Object.assign(view, {
    /** Called by the tab bar: the rows are built only while the view is in sight. */
    setVisible(on: boolean) {
      visible = on;
      if (on && dirty) refresh();
      else if (on) draw();
    },
  });
}
