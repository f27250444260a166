/**
 * The Session view: export the recorded exchanges as a fixture `executa test --fixtures` replays
 * (each checked when a replay can answer the same, with why not otherwise), export the trace as
 * JSON, and import a fixture to replay it on the running plugin.
 */
import type { ExportCandidate, ReplayResult } from "../../inspect/wire.js";
import { type ApiFailure, fetchBlob, get, post } from "../api.js";
import { download, fill, h } from "../dom.js";

export function sessionView(): HTMLElement {
  const error = h("div", { class: "error-line", role: "alert" });
  const fail = (e: unknown) =>
    fill(error, (e as ApiFailure).message, (e as ApiFailure).hint ? ` (${(e as ApiFailure).hint})` : "");
  const list = h("tbody");
  const replayOut = h("div", { class: "replay" });

  const loadCandidates = async () => {
    fill(error);
    const candidates = await get<ExportCandidate[]>("/api/export/candidates").catch((e) => (fail(e), []));
    fill(
      list,
      candidates.length
        ? candidates.map((c) =>
            h(
              "tr",
              { "data-index": c.index },
              h(
                "td",
                null,
                h("input", {
                  type: "checkbox",
                  checked: c.replayable,
                  "data-include": c.index,
                  "aria-label": `include ${c.summary}`,
                }),
              ),
              h("td", null, String(c.session)),
              h("td", null, h("code", null, c.summary)),
              h("td", null, c.ok ? "ok" : h("span", { class: "warn" }, "error")),
              h("td", { class: "muted" }, c.why ?? ""),
            ),
          )
        : h("tr", null, h("td", { colSpan: 5, class: "muted" }, "nothing recorded yet: invoke a tool first")),
    );
  };

  const exportFixture = async () => {
    const include = [...list.querySelectorAll<HTMLInputElement>("input[data-include]")]
      .filter((b) => b.checked)
      .map((b) => Number(b.dataset.include));
    try {
      download("session.jsonl", await fetchBlob("POST", "/api/export/fixture", { include }));
    } catch (e) {
      fail(e);
    }
  };

  const fileInput = h("input", {
    type: "file",
    accept: ".jsonl,application/x-ndjson,application/json",
    "aria-label": "fixture to replay",
  });
  const replay = async () => {
    const file = fileInput.files?.[0];
    if (!file) return fill(error, "choose a fixture file first");
    fill(replayOut, h("p", { class: "muted" }, "replaying…"));
    try {
      const { results, notReplayed } = await post<{ results: ReplayResult[]; notReplayed: string[] }>("/api/import", {
        name: file.name,
        text: await file.text(),
      });
      const bad = results.filter((r) => !r.matched).length;
      fill(
        replayOut,
        h(
          "p",
          { class: `summary ${bad ? "bad" : "ok"}`, "data-role": "replay-summary" },
          `${results.length - bad} of ${results.length} exchanges answered as recorded${notReplayed.length ? `; not replayed (app-level): ${notReplayed.join(", ")}` : ""}`,
        ),
        h(
          "table",
          null,
          h(
            "tbody",
            null,
            results.map((r) =>
              h(
                "tr",
                { class: r.matched ? "pass" : "fail" },
                h("td", { class: "mark" }, r.matched ? "✔" : "✖"),
                h("td", null, `line ${r.line}`),
                h("td", null, h("code", null, r.method)),
                h(
                  "td",
                  null,
                  r.matched
                    ? null
                    : h(
                        "details",
                        null,
                        h("summary", null, "expected / got"),
                        h(
                          "pre",
                          null,
                          `expected ${JSON.stringify(r.expected, null, 2)}\n\ngot ${JSON.stringify(r.answer, null, 2)}`,
                        ),
                      ),
                ),
              ),
            ),
          ),
        ),
      );
    } catch (e) {
      fill(replayOut);
      fail(e);
    }
  };

  void loadCandidates();
  return h(
    "section",
    { class: "view session-view", "data-view": "session" },
    error,
    h(
      "div",
      { class: "panel" },
      h("h3", null, "Export"),
      h(
        "p",
        { class: "muted" },
        "A fixture holds the checked exchanges; executa test --fixtures FILE replays it and compares every answer. Credentials are never exported.",
      ),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", onclick: () => void loadCandidates() }, "Refresh the list"),
        h(
          "button",
          { type: "button", class: "primary", "data-action": "export-fixture", onclick: () => void exportFixture() },
          "Download the fixture (session.jsonl)",
        ),
        h(
          "button",
          {
            type: "button",
            "data-action": "export-trace",
            onclick: () => void fetchBlob("GET", "/api/export/trace").then((b) => download("trace.json", b), fail),
          },
          "Download the trace (trace.json)",
        ),
      ),
      h(
        "table",
        null,
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            ["", "session", "exchange", "answer", "not checked because"].map((c) => h("th", null, c)),
          ),
        ),
        list,
      ),
    ),
    h(
      "div",
      { class: "panel" },
      h("h3", null, "Import"),
      h(
        "p",
        { class: "muted" },
        "Replay a fixture (a harness recording, or {request, expect} lines) on the running plugin: the frames show in the trace.",
      ),
      h(
        "div",
        { class: "actions" },
        fileInput,
        h("button", { type: "button", "data-action": "replay", onclick: () => void replay() }, "Replay"),
      ),
      replayOut,
    ),
  );
}
