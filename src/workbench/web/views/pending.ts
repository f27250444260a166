/**
 * Sampling requests waiting for the author's answer (sampling "by hand"): shown above every view
 * while any waits, each with its prompt, the invoke it came from, and a box for the answer or an
 * error.
 */
import type { PendingManual } from "../../inspect/wire.js";
import { post } from "../api.js";
import { fill, h } from "../dom.js";
import { store } from "../store.js";

function card(p: PendingManual, onError: (e: Error) => void): HTMLElement {
  const answer = h("textarea", {
    rows: 3,
    placeholder: "the model's answer",
    "data-role": "answer",
    "aria-label": "answer text",
  });
  const code = h("input", { type: "number", value: "-32603", class: "code", "aria-label": "error code" });
  const message = h("input", {
    type: "text",
    placeholder: "error message",
    "aria-label": "error message",
    value: "the user declined",
  });
  const send = (body: object) => post("/api/manual", { seq: p.seq, ...body }).catch(onError);
  return h(
    "article",
    { class: "pending", "data-seq": p.seq, "data-invoke": p.invokeId ?? "" },
    h(
      "header",
      null,
      h("strong", null, p.method),
      " ",
      h(
        "span",
        { class: "muted" },
        `request #${p.seq}${p.invokeId ? ` from invoke ${p.invokeId}` : ""}, session ${p.session}`,
      ),
    ),
    h("pre", { class: "prompt" }, p.prompt || JSON.stringify(p.params, null, 2)),
    h("details", null, h("summary", null, "the request's params"), h("pre", null, JSON.stringify(p.params, null, 2))),
    answer,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { type: "button", class: "primary", "data-action": "answer", onclick: () => void send({ text: answer.value }) },
        "Answer",
      ),
      h("span", { class: "muted" }, "or answer with the error"),
      code,
      message,
      h(
        "button",
        {
          type: "button",
          "data-action": "error",
          onclick: () => void send({ error: { code: Number(code.value), message: message.value } }),
        },
        "Send error",
      ),
    ),
  );
}

export function pendingPanel(): HTMLElement {
  const panel = h("section", {
    class: "pending-panel",
    "aria-label": "requests waiting for your answer",
    hidden: true,
  });
  const error = h("div", { class: "error-line" });
  const render = (pending: PendingManual[]) => {
    panel.hidden = pending.length === 0;
    // Cards already shown keep what is being typed in them.
    const keep = new Map(
      [...panel.querySelectorAll<HTMLElement>("article.pending")].map((el) => [Number(el.dataset.seq), el]),
    );
    fill(
      panel,
      h("h3", null, `${pending.length} request${pending.length === 1 ? "" : "s"} waiting for your answer`),
      error,
      pending.map((p) => keep.get(p.seq) ?? card(p, (e) => fill(error, e.message))),
    );
  };
  render(store.state.pending);
  store.on("pending", render);
  return panel;
}
