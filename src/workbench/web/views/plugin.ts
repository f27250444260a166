/** The Plugin view: the manifest as served (name, version, description, credentials, host capabilities), health and protocol. */
import type { PluginState } from "../../inspect/wire.js";
import { fill, h, type Child } from "../dom.js";
import { store } from "../store.js";
import { jsonTree } from "../tree.js";

const dl = (pairs: [string, unknown][]) =>
  h(
    "dl",
    null,
    pairs.flatMap(([k, v]) => [
      h("dt", null, k),
      h("dd", null, v === undefined || v === "" ? h("span", { class: "muted" }, "—") : (v as Child)),
    ]),
  );

export function pluginView(): HTMLElement {
  const view = h("section", { class: "view plugin-view", "data-view": "plugin" });
  const render = (p: PluginState) => {
    const m = p.manifest;
    fill(
      view,
      h(
        "div",
        { class: "panel" },
        h("h3", null, "Plugin"),
        dl([
          ["name", m?.name],
          ["display name", m?.display_name],
          ["version", m?.version],
          ["description", m?.description],
          ["status", p.status],
          ["protocol", p.protocolVersion ?? "not negotiated yet"],
          ["session", p.session],
          ["started as", `${[p.launch.command, ...p.launch.args].join(" ")} (${p.launch.source})`],
        ]),
        p.message ? h("p", { class: "error-line" }, p.message) : null,
        store.manifestProblems.length
          ? h(
              "div",
              { class: "manifest-problems" },
              h("p", { class: "error-line" }, "The manifest has fields the page cannot use:"),
              h(
                "ul",
                null,
                store.manifestProblems.map((x) => h("li", null, x)),
              ),
            )
          : null,
        p.stderrTail
          ? h(
              "details",
              { open: p.status === "failed" },
              h("summary", null, "the plugin's last stderr"),
              h("pre", null, p.stderrTail),
            )
          : null,
      ),
      h(
        "div",
        { class: "panel" },
        h("h3", null, "Health"),
        p.health === undefined ? h("p", { class: "muted" }, "not asked yet") : jsonTree(p.health),
      ),
      h(
        "div",
        { class: "panel" },
        h("h3", null, "Credentials"),
        m?.credentials?.length
          ? h(
              "table",
              null,
              h(
                "thead",
                null,
                h(
                  "tr",
                  null,
                  ["name", "display name", "required", "sensitive", "description"].map((c) => h("th", null, c)),
                ),
              ),
              h(
                "tbody",
                null,
                m.credentials.map((c) =>
                  h(
                    "tr",
                    null,
                    h("td", null, c.name),
                    h("td", null, c.display_name ?? ""),
                    h("td", null, c.required ? "yes" : "no"),
                    h("td", null, c.sensitive === false ? "no" : "yes"),
                    h("td", null, c.description ?? ""),
                  ),
                ),
              ),
            )
          : h("p", { class: "muted" }, "none declared"),
      ),
      h(
        "div",
        { class: "panel" },
        h("h3", null, "Host capabilities"),
        m?.host_capabilities?.length
          ? h(
              "ul",
              { class: "caps" },
              m.host_capabilities.map((c) =>
                h(
                  "li",
                  null,
                  h("code", null, c),
                  store.state.host.refused.includes(c)
                    ? h("span", { class: "badge warn" }, "refused by the simulated user")
                    : null,
                ),
              ),
            )
          : h("p", { class: "muted" }, "none: the plugin makes no reverse requests"),
      ),
      m ? h("div", { class: "panel" }, h("h3", null, "The manifest as served"), jsonTree(m)) : null,
    );
  };
  render(store.state.plugin);
  store.on("plugin", render);
  store.on("host", () => render(store.state.plugin));
  return view;
}
