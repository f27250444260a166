/** The page's one DOM helper: elements from a tag, properties and children. Text is always text (never parsed as HTML). */
export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: Event) => void;
export type Props = Record<string, string | number | boolean | Handler | undefined | null>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "class") el.className = String(value);
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "for" || key === "title")
      el.setAttribute(key, String(value));
    else if (key in el) (el as unknown as Record<string, unknown>)[key] = value;
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const child of children as unknown[]) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child as Child[]);
    else if (child instanceof Node) el.appendChild(child);
    else if (typeof child === "string" || typeof child === "number")
      el.appendChild(document.createTextNode(String(child)));
    else el.appendChild(invalid(child));
  }
}

/** A value where text was expected (a plugin's describe can hold anything): shown, marked invalid. */
function invalid(value: unknown): HTMLElement {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const el = document.createElement("span");
  el.className = "invalid-value";
  el.title = "not text: the plugin served another type here";
  el.textContent = `invalid (${typeof value}): ${text.length > 200 ? `${text.slice(0, 199)}…` : text}`;
  return el;
}

/** Replaces every child of `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A JSON text, pretty when it parses. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Saves text or bytes as a file through the browser's download. */
export function download(name: string, body: Blob): void {
  const url = URL.createObjectURL(body);
  const a = h("a", { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
