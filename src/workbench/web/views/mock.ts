/**
 * The Mock host view: how sampling is answered (canned, echo, rules, or by hand), the rules in
 * use, the host to simulate (protocol 2.0, or a v1 host; capabilities its user refuses), and the
 * storage.
 */
import type { HostState, SamplingKind } from "../../inspect/wire.js";
import { ApiFailure, post } from "../api.js";
import { fill, h } from "../dom.js";
import { store } from "../store.js";
import { storagePanel } from "./storage.js";

const KINDS: { kind: SamplingKind; label: string; help: string }[] = [
  { kind: "canned", label: "canned", help: "every request gets the same reply text" },
  { kind: "echo", label: "echo", help: "the reply is the last user message" },
  { kind: "rules", label: "rules", help: "the rules below answer first; the canned text answers the rest" },
  { kind: "manual", label: "by hand", help: "each request waits here for you to type the answer or an error" },
];

export function mockView(): HTMLElement {
  const error = h("div", { class: "error-line", role: "alert" });
  const fail = (e: unknown) => fill(error, (e as ApiFailure).message, (e as ApiFailure).hint ? ` (${(e as ApiFailure).hint})` : "");
  const ok = () => fill(error);

  const canned = h("input", { type: "text", "aria-label": "canned reply text", class: "wide" });
  const radios = KINDS.map(({ kind, label, help }) => {
    const input = h("input", { type: "radio", name: "sampling", value: kind, "data-sampling": kind });
    input.addEventListener("change", () => void post<HostState>("/api/sampling", { kind, text: canned.value }).then(ok, (e) => (fail(e), renderHost(store.state.host))));
    return { kind, input, el: h("label", { class: "radio" }, input, h("strong", null, label), h("span", { class: "muted" }, ` ${help}`)) };
  });
  canned.addEventListener("change", () => {
    const kind = store.state.host.sampling.kind;
    void post("/api/sampling", { kind, text: canned.value }).then(ok, fail);
  });

  const rulesText = h("textarea", { rows: 5, class: "json", spellcheck: false, placeholder: '{"method": "sampling/createMessage", "match": {}, "result": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}}', "aria-label": "mock rules (JSONL)" });
  const rulesInfo = h("div", { class: "muted" });
  const applyRules = () => void post<{ count: number }>("/api/rules", { text: rulesText.value }).then(ok, fail);

  const protocol = h("select", { "aria-label": "host protocol", "data-role": "protocol" },
    h("option", { value: "2.0" }, "2.0: initialize, then reverse requests"),
    h("option", { value: "1.1" }, "1.1: a v1 host (no initialize, no reverse requests)"));
  protocol.addEventListener("change", () => void post("/api/host", { protocol: protocol.value }).then(ok, fail));
  const refuseBox = h("div", { class: "refuse" });

  const renderHost = (host: HostState) => {
    for (const r of radios) r.input.checked = r.kind === host.sampling.kind;
    if (document.activeElement !== canned) canned.value = host.sampling.text;
    protocol.value = host.protocol;
    fill(rulesInfo, host.rules ? `${host.rules.count} rule(s) in use, ${host.rules.source}` : "no rules in use");
    if (host.rules?.text !== undefined && document.activeElement !== rulesText) rulesText.value = host.rules.text;
    const declared = store.state.plugin.manifest?.host_capabilities ?? [];
    fill(refuseBox, store.state.capabilities.map((c) => {
      const box = h("input", { type: "checkbox", checked: host.refused.includes(c), "data-refuse": c });
      box.addEventListener("change", () => {
        const refused = [...refuseBox.querySelectorAll<HTMLInputElement>("input[data-refuse]")].filter((b) => b.checked).map((b) => b.dataset.refuse!);
        void post("/api/host", { refused }).then(ok, fail);
      });
      return h("label", { class: `check${declared.includes(c) ? " declared" : ""}`, title: declared.includes(c) ? "the manifest asks for it" : "" }, box, c);
    }));
  };
  renderHost(store.state.host);
  store.on("host", renderHost);
  store.on("plugin", () => renderHost(store.state.host));

  return h("section", { class: "view mock-view", "data-view": "mock" },
    error,
    h("div", { class: "panel" }, h("h3", null, "Sampling"), radios.map((r) => r.el), h("label", { class: "row-label" }, "canned text ", canned)),
    h("div", { class: "panel" }, h("h3", null, "Rules"), rulesInfo, rulesText, h("div", { class: "actions" }, h("button", { type: "button", onclick: applyRules }, "Use these rules"), h("span", { class: "muted" }, " one JSON object a line; empty removes them"))),
    h("div", { class: "panel" }, h("h3", null, "Host"), h("label", { class: "row-label" }, "protocol ", protocol), h("p", { class: "muted" }, "Refuse these capabilities (the user did not grant them; bold: the manifest asks for it):"), refuseBox),
    h("div", { class: "panel" }, storagePanel()));
}
