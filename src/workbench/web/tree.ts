/** A JSON value as a collapsible tree (<details> per object and array; the first levels open). */
import { h, type Child } from "./dom.js";

const OPEN_LEVELS = 3;
/** Children shown per object or array before a "more" line (a 10,000-item array stays quick). */
const MAX_CHILDREN = 500;

function scalar(value: unknown): HTMLElement {
  const kind = value === null ? "null" : typeof value;
  return h("span", { class: `v ${kind}` }, kind === "string" ? JSON.stringify(value) : String(value));
}

function node(key: string | undefined, value: unknown, depth: number): HTMLElement {
  const label: Child = key === undefined ? null : h("span", { class: "k" }, `${key}: `);
  if (value === null || typeof value !== "object") return h("div", { class: "leaf" }, label, scalar(value));
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const summary = isArray ? `[${entries.length}]` : `{${entries.length}}`;
  const details = h(
    "details",
    { class: "node", open: depth < OPEN_LEVELS },
    h("summary", null, label, h("span", { class: "count" }, summary)),
  );
  let rendered = false;
  const render = () => {
    if (rendered) return;
    rendered = true;
    for (const [k, v] of entries.slice(0, MAX_CHILDREN)) details.appendChild(node(k, v, depth + 1));
    if (entries.length > MAX_CHILDREN)
      details.appendChild(h("div", { class: "more" }, `… ${entries.length - MAX_CHILDREN} more (see the raw JSON)`));
  };
  if (details.open) render();
  else details.addEventListener("toggle", render, { once: true });
  return details;
}

export function jsonTree(value: unknown): HTMLElement {
  return h("div", { class: "tree" }, node(undefined, value, 0));
}
