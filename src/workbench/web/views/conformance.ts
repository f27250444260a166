/** The Conformance view: `executa test`'s checks run from the page, on fresh sessions of the same plugin, and their report. */
import type { ConformanceReportView } from "../../inspect/wire.js";
import { type ApiFailure, post } from "../api.js";
import { fill, h } from "../dom.js";

const MARK: Record<string, string> = { pass: "✔", fail: "✖", warn: "!", skip: "–" };

export function conformanceView(): HTMLElement {
  const out = h(
    "div",
    { class: "report" },
    h(
      "p",
      { class: "muted" },
      "the checks of executa test, against fresh sessions of this plugin with the mock host as set here",
    ),
  );
  const run = h("button", { type: "button", class: "primary", "data-action": "conformance" }, "Run the checks");
  run.addEventListener("click", async () => {
    run.disabled = true;
    fill(out, h("p", { class: "muted" }, "running…"));
    try {
      const report = await post<ConformanceReportView>("/api/conformance");
      const count = (s: string) => report.results.filter((r) => r.status === s).length;
      fill(
        out,
        h(
          "p",
          { class: `summary ${report.passed ? "ok" : "bad"}`, "data-role": "summary" },
          `${report.passed ? "passed" : "failed"}: ${count("pass")} passed, ${count("fail")} failed, ${count("warn")} warnings, ${count("skip")} skipped in ${((report.ms ?? 0) / 1000).toFixed(1)} s`,
        ),
        h(
          "table",
          null,
          h(
            "tbody",
            null,
            report.results.map((r) =>
              h(
                "tr",
                { class: `check-row ${r.status}`, "data-check": r.id },
                h("td", { class: "mark" }, MARK[r.status] ?? r.status),
                h("td", null, h("code", null, r.id)),
                h("td", { class: "muted" }, r.ms !== undefined ? `${r.ms} ms` : ""),
                h(
                  "td",
                  null,
                  r.description,
                  r.message ? h("pre", { class: "message" }, r.message) : null,
                  r.rule && r.status !== "pass" ? h("div", { class: "muted small" }, `rule: ${r.rule}`) : null,
                ),
              ),
            ),
          ),
        ),
      );
    } catch (error) {
      fill(out, h("p", { class: "error-line" }, (error as ApiFailure).message));
    } finally {
      run.disabled = false;
    }
  });
  return h(
    "section",
    { class: "view conformance-view", "data-view": "conformance" },
    h("div", { class: "actions" }, run),
    out,
  );
}
