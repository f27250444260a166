/**
 * The Mock host view: how sampling is answered (canned, echo, rules, or by hand), the rules in
 * use, the web services, the host to simulate (initialize offering 2.0 or 1.1, or none at all as
 * Anna's local-dev runtime; capabilities its user refuses), and the
 * storage.
 */
import type { HostState, SamplingKind } from "../../inspect/wire.js";
import { type ApiFailure, post } from "../api.js";
import { fill, h } from "../dom.js";
import { store } from "../store.js";
import { storagePanel } from "./storage.js";

const KINDS: { kind: SamplingKind; label: string; help: string }[] = [
  { kind: "canned", label: "canned", help: "every request gets the same reply text" },
  { kind: "echo", label: "echo", help: "the reply is the last user message" },
  { kind: "rules", label: "rules", help: "the rules below answer first; the canned text answers the rest" },
  { kind: "manual", label: "by hand", help: "each request waits here for you to type the answer or an error" },
];

const WEB_RULE =
  '{"method": "web/search", "match": {"query": "$any"}, "result": {"results": [{"title": "My page", "url": "https://example.org/", "snippet": "…", "site": "example.org", "published_at": null, "score": null}], "provider_tier": "basic", "quota_consumed": 0}}';

export function mockView(): HTMLElement {
  const error = h("div", { class: "error-line", role: "alert" });
  const fail = (e: unknown) =>
    fill(error, (e as ApiFailure).message, (e as ApiFailure).hint ? ` (${(e as ApiFailure).hint})` : "");
  const ok = () => fill(error);

  const canned = h("input", { type: "text", "aria-label": "canned reply text", class: "wide" });
  const radios = KINDS.map(({ kind, label, help }) => {
    const input = h("input", { type: "radio", name: "sampling", value: kind, "data-sampling": kind });
    input.addEventListener(
      "change",
      () =>
        void post<HostState>("/api/sampling", { kind, text: canned.value }).then(
          ok,
          (e) => (fail(e), renderHost(store.state.host)),
        ),
    );
    return {
      kind,
      input,
      el: h("label", { class: "radio" }, input, h("strong", null, label), h("span", { class: "muted" }, ` ${help}`)),
    };
  });
  canned.addEventListener("change", () => {
    const kind = store.state.host.sampling.kind;
    void post("/api/sampling", { kind, text: canned.value }).then(ok, fail);
  });

  const rulesText = h("textarea", {
    rows: 5,
    class: "json",
    spellcheck: false,
    placeholder:
      '{"method": "sampling/createMessage", "match": {}, "result": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}}',
    "aria-label": "mock rules (JSONL)",
  });
  const rulesInfo = h("div", { class: "muted" });
  const applyRules = () => void post<{ count: number }>("/api/rules", { text: rulesText.value }).then(ok, fail);

  const protocol = h(
    "select",
    { "aria-label": "host protocol", "data-role": "protocol" },
    h("option", { value: "2.0" }, "2.0: initialize offering 2.0, then reverse requests"),
    h("option", { value: "1.1" }, "1.1: initialize offering 1.1 (no reverse requests)"),
    h("option", { value: "none" }, "none: no initialize, as Anna's local-dev runtime (reverse requests served)"),
  );
  protocol.addEventListener("change", () => void post("/api/host", { protocol: protocol.value }).then(ok, fail));
  const refuseBox = h("div", { class: "refuse" });

  const renderHost = (host: HostState) => {
    for (const r of radios) r.input.checked = r.kind === host.sampling.kind;
    if (document.activeElement !== canned) canned.value = host.sampling.text;
    protocol.value = host.protocol;
    fill(rulesInfo, host.rules ? `${host.rules.count} rule(s) in use, ${host.rules.source}` : "no rules in use");
    if (host.rules?.text !== undefined && document.activeElement !== rulesText) rulesText.value = host.rules.text;
    const declared = store.state.plugin.manifest?.host_capabilities ?? [];
    fill(
      refuseBox,
      store.state.capabilities.map((c) => {
        const box = h("input", { type: "checkbox", checked: host.refused.includes(c), "data-refuse": c });
        box.addEventListener("change", () => {
          const refused = [...refuseBox.querySelectorAll<HTMLInputElement>("input[data-refuse]")]
            .filter((b) => b.checked)
            .map((b) => b.dataset.refuse!);
          void post("/api/host", { refused }).then(ok, fail);
        });
        return h(
          "label",
          {
            class: `check${declared.includes(c) ? " declared" : ""}`,
            title: declared.includes(c) ? "the manifest asks for it" : "",
          },
          box,
          c,
        );
      }),
    );
  };
  renderHost(store.state.host);
  store.on("host", renderHost);
  store.on("plugin", () => renderHost(store.state.host));

  return h(
    "section",
    { class: "view mock-view", "data-view": "mock" },
    error,
    h(
      "div",
      { class: "panel" },
      h("h3", null, "Sampling"),
      radios.map((r) => r.el),
      h("label", { class: "row-label" }, "canned text ", canned),
    ),
    h(
      "div",
      { class: "panel", "data-service": "web" },
      h("h3", null, "Web"),
      h(
        "p",
        { class: "muted" },
        "web/search answers canned results on example.com built from the query; web/fetch a short text per URL (a private, loopback or non-http URL fails with SSRF_BLOCKED, as on the platform). A missing query or urls gets the platform's -32602 invalid_arg.",
      ),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            type: "button",
            onclick: () =>
              (rulesText.value = `${rulesText.value.trim() ? `${rulesText.value.trim()}\n` : ""}${WEB_RULE}`),
          },
          "Add a web/search rule",
        ),
        h("span", { class: "muted" }, " to answer with results of your own"),
      ),
    ),
    h(
      "div",
      { class: "panel" },
      h("h3", null, "Rules"),
      rulesInfo,
      rulesText,
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", onclick: applyRules }, "Use these rules"),
        h("span", { class: "muted" }, " one JSON object a line; empty removes them"),
      ),
    ),
    h(
      "div",
      { class: "panel" },
      h("h3", null, "Host"),
      h("label", { class: "row-label" }, "protocol ", protocol),
      h(
        "p",
        { class: "muted" },
        "Refuse these capabilities (the user did not grant them; bold: the manifest asks for it):",
      ),
      refuseBox,
    ),
    h("div", { class: "panel" }, storagePanel()),
  );
}
