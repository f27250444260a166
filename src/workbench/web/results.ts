/**
 * One invoke's result as the host sees it: success or error, how long it took, the data as a
 * tree, `_display` apart (the chat UI shows it verbatim, the model does not see it paraphrased),
 * and the file-transport size when the answer came in a file.
 */
import type { ProgressNote } from "../inspect/wire.js";
import { formatBytes, h, type Child } from "./dom.js";
import type { ResultView } from "./store.js";
import { jsonTree } from "./tree.js";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** `_display` as the chat UI receives it: text blocks as text, anything else as its JSON. */
function displayBlock(display: unknown): HTMLElement {
  const blocks = Array.isArray(display) ? display : [display];
  return h(
    "div",
    { class: "display", "data-part": "display" },
    h("div", { class: "part-title" }, "_display: what the chat UI shows verbatim"),
    blocks.map((block) => {
      if (typeof block === "string") return h("pre", { class: "display-text" }, block);
      const text = isObject(block)
        ? ["markdown", "text", "content"].map((k) => block[k]).find((v) => typeof v === "string")
        : undefined;
      const type = isObject(block) && typeof block.type === "string" ? block.type : undefined;
      return h(
        "div",
        { class: "display-block" },
        type ? h("div", { class: "display-type" }, type) : null,
        typeof text === "string"
          ? h("pre", { class: "display-text" }, text)
          : h("pre", null, JSON.stringify(block, null, 2)),
      );
    }),
  );
}

function envelopeBody(result: Obj): Child[] {
  if (result.success === false)
    return [h("div", { class: "tool-error", "data-part": "error" }, String(result.error ?? "(no error message)"))];
  const data = result.data;
  if (isObject(data) && "_display" in data) {
    const { _display, ...rest } = data;
    return [
      displayBlock(_display),
      h("div", { class: "part-title" }, "data: what the model sees"),
      h("div", { "data-part": "data" }, jsonTree(rest)),
    ];
  }
  return [h("div", { class: "part-title" }, "data"), h("div", { "data-part": "data" }, jsonTree(data ?? null))];
}

/** An invoke's executa/progress notifications, one line each: type, data, and what the platform would drop or change. */
export function progressList(notes: readonly ProgressNote[]): HTMLElement {
  return h(
    "ol",
    { class: "progress-list", "data-part": "progress" },
    notes.map((n) =>
      h(
        "li",
        { class: n.problem ? "problem" : "" },
        h("span", { class: "badge" }, typeof n.type === "string" ? n.type : "progress"),
        " ",
        h("code", null, JSON.stringify(n.data) ?? "undefined"),
        n.problem ? h("span", { class: "note" }, ` ${n.problem}`) : null,
      ),
    ),
  );
}

export function resultCard(r: ResultView): HTMLElement {
  const answer = r.answer;
  let status: string;
  let kind: string;
  let body: Child[];
  if ("error" in answer) {
    const error = isObject(answer.error) ? answer.error : {};
    kind = "rpc-error";
    status = `error ${String(error.code ?? "")}`;
    body = [
      h("div", { class: "tool-error", "data-part": "error" }, String(error.message ?? "")),
      error.data !== undefined ? jsonTree(error.data) : null,
    ];
  } else if (isObject(answer.result) && typeof answer.result.success === "boolean") {
    kind = answer.result.success ? "success" : "tool-error";
    status = answer.result.success ? "success" : "failed";
    body = envelopeBody(answer.result);
  } else {
    kind = "odd";
    status = "not an envelope";
    body = [jsonTree(answer.result)];
  }
  const duration =
    isObject(answer) && "result" in answer && isObject(answer.result) && typeof answer.result.duration_ms === "number"
      ? answer.result.duration_ms
      : undefined;
  return h(
    "article",
    { class: `result ${kind}`, "data-tool": r.tool, "data-status": kind },
    h(
      "header",
      null,
      h("span", { class: "badge status" }, status),
      h("strong", null, r.tool),
      h(
        "span",
        { class: "muted" },
        `${r.ms} ms round trip${duration !== undefined ? `, ${duration} ms in the tool` : ""}`,
      ),
      r.tooLarge
        ? h(
            "span",
            { class: "badge file", "data-part": "too-large" },
            `${formatBytes(r.tooLarge.bytes)}: over the platform's ${formatBytes(r.tooLarge.maxBytes)} result limit`,
          )
        : null,
      r.file
        ? h(
            "span",
            { class: "badge file", "data-part": "file" },
            r.file.error
              ? `file transport failed: ${r.file.error}`
              : `by file transport, ${formatBytes(r.file.bytes ?? 0)}`,
          )
        : null,
      h("span", { class: "muted small" }, r.invokeId),
      h("span", { class: "muted small" }, r.at.toLocaleTimeString()),
    ),
    r.problems.length
      ? h(
          "div",
          { class: "note" },
          `sent despite ${r.problems.length} problem(s): ${r.problems.map((p) => `${p.parameter}: ${p.message}`).join("; ")}`,
        )
      : null,
    r.progress?.length
      ? h(
          "details",
          { class: "progress", open: true },
          h("summary", null, `progress (${r.progress.length})`),
          progressList(r.progress),
        )
      : null,
    h("div", { class: "result-body" }, body),
    h("details", { class: "raw" }, h("summary", null, "raw answer"), h("pre", null, JSON.stringify(answer, null, 2))),
  );
}
