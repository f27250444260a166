/** The bar at the top: the plugin, its status, health and protocol, restart, the connection, and the --watch banner. */
import type { PluginState, WatchState } from "../../inspect/wire.js";
import { post } from "../api.js";
import { fill, h } from "../dom.js";
import { store } from "../store.js";

function healthOf(p: PluginState): string {
  const status = (p.health as { status?: unknown } | undefined)?.status;
  return typeof status === "string"
    ? status
    : p.health && typeof p.health === "object" && "error" in p.health
      ? "error"
      : "unknown";
}

export function header(): HTMLElement {
  const title = h("div", { class: "title" });
  const status = h("span", { class: "badge", "data-role": "status" });
  const health = h("button", {
    type: "button",
    class: "badge link",
    title: "ask the plugin for its health",
    onclick: () => void post("/api/health").catch(() => undefined),
  });
  const protocol = h("span", { class: "badge", "data-role": "protocol" });
  const restart = h(
    "button",
    {
      type: "button",
      "data-action": "restart",
      onclick: () => {
        restart.disabled = true;
        void post("/api/restart").finally(() => (restart.disabled = false));
      },
    },
    "Restart",
  );
  const connection = h("span", { class: "badge", "data-role": "connection" });
  const banner = h("div", { class: "banner", role: "status", hidden: true });

  const render = (p: PluginState) => {
    fill(
      title,
      h("strong", null, p.manifest?.display_name ?? p.manifest?.name ?? "plugin"),
      p.manifest?.version ? h("span", { class: "muted" }, ` ${p.manifest.version}`) : null,
    );
    status.textContent = p.status;
    status.className = `badge status-${p.status}`;
    health.textContent = `health: ${healthOf(p)}`;
    protocol.textContent = `protocol ${p.protocolVersion ?? "…"}`;
    document.body.dataset.plugin = p.status;
  };
  const renderWatch = (w: WatchState) => {
    banner.hidden = w.state !== "rebuilding" && w.state !== "failed";
    banner.className = `banner ${w.state}`;
    if (w.state === "rebuilding")
      fill(
        banner,
        `Rebuilding: ${w.files.slice(0, 3).join(", ")}${w.files.length > 3 ? " …" : ""} changed; the plugin restarts`,
      );
    else if (w.state === "failed") fill(banner, `The rebuild failed: ${w.message}`);
  };
  render(store.state.plugin);
  renderWatch(store.state.watch);
  store.on("plugin", render);
  store.on("watch", renderWatch);
  const renderConnection = (on: boolean) => {
    connection.textContent = on ? "live" : "disconnected";
    connection.className = `badge ${on ? "ok" : "warn"}`;
  };
  renderConnection(store.connected);
  store.on("connected", renderConnection);
  return h(
    "header",
    { class: "top" },
    h("div", { class: "bar" }, title, status, health, protocol, restart, connection),
    banner,
  );
}
