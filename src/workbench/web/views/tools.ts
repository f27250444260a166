/**
 * The Tools view: the tool list, the credentials (entered once, kept only in the server's memory),
 * a form per tool (or raw JSON), the runtime's own argument check shown before sending, and the
 * results of this page's invokes.
 */
import { argumentProblems, type ArgumentProblem, type ToolDefinition } from "../../../protocol/index.js";
import type { InvokeAnswer, ProgressNote } from "../../inspect/wire.js";
import { ApiFailure, post } from "../api.js";
import { fill, h } from "../dom.js";
import { fieldFor, type Field } from "../form.js";
import { progressList, resultCard } from "../results.js";
import { store } from "../store.js";

/** Cards of the invokes still running, each with the progress its tool reports (executa/progress), live. */
const runningBox = h("div", { class: "running", "aria-label": "running invokes" });

function runningCard(tool: string, invokeId: string): { el: HTMLElement; stop: () => void } {
  const notes: ProgressNote[] = [];
  const list = h("div", { "data-part": "progress" });
  const el = h(
    "article",
    { class: "result running", "data-tool": tool, "data-invoke": invokeId, "data-status": "running" },
    h(
      "header",
      null,
      h("span", { class: "badge status" }, "running"),
      h("strong", null, tool),
      h("span", { class: "muted small" }, invokeId),
    ),
    list,
  );
  const unsubscribe = store.on("progress", (note) => {
    if (note.invokeId !== invokeId) return;
    notes.push(note);
    fill(list, progressList(notes));
  });
  runningBox.prepend(el);
  return { el, stop: () => (unsubscribe(), el.remove()) };
}

function credentialsBox(): HTMLElement {
  const box = h("section", { class: "credentials", "aria-label": "credentials" });
  let shown = "";
  const render = () => {
    const names = store.state.credentials;
    const declared = store.state.plugin.manifest?.credentials ?? [];
    // Re-rendered only when what it shows changes (a secret being typed is not wiped by a health update).
    const key = JSON.stringify([names, declared]);
    if (key === shown) return;
    shown = key;
    const extra = names.filter((n) => !declared.some((c) => c.name === n));
    if (!declared.length && !extra.length) return fill(box);
    fill(
      box,
      h(
        "h3",
        null,
        "Credentials ",
        h(
          "span",
          { class: "muted small" },
          "kept in the server's memory only: never in this page's storage, the trace or an export",
        ),
      ),
      declared.map((c) => {
        const input = h("input", {
          type: c.sensitive === false ? "text" : "password",
          autocomplete: "off",
          placeholder: c.display_name ?? c.name,
          "data-credential": c.name,
        });
        const set = names.includes(c.name);
        const save = async () => {
          await post("/api/credentials", { values: { [c.name]: input.value } }).catch(showError);
          input.value = "";
        };
        input.addEventListener("keydown", (e) => (e as KeyboardEvent).key === "Enter" && void save());
        return h(
          "div",
          { class: "credential", "data-name": c.name },
          h(
            "label",
            null,
            h("span", { class: "name" }, c.name),
            c.required ? h("span", { class: "req" }, "*") : null,
            h("span", { class: `badge ${set ? "ok" : ""}` }, set ? "set" : "not set"),
          ),
          input,
          h("button", { type: "button", onclick: () => void save() }, "Set"),
          set
            ? h(
                "button",
                {
                  type: "button",
                  class: "small",
                  onclick: () => void post("/api/credentials", { values: { [c.name]: "" } }).catch(showError),
                },
                "Clear",
              )
            : null,
          c.description ? h("div", { class: "desc" }, c.description) : null,
        );
      }),
      extra.length ? h("div", { class: "muted small" }, `also set (from --credential): ${extra.join(", ")}`) : null,
    );
  };
  render();
  store.on("credentials", render);
  store.on("plugin", render);
  return box;
}

const errorLine = h("div", { class: "error-line", role: "alert" });
function showError(error: unknown): void {
  const e = error as ApiFailure;
  fill(errorLine, e.message, e.hint ? h("span", { class: "muted" }, ` (${e.hint})`) : null);
  setTimeout(() => fill(errorLine), 8000);
}

/** The form of one tool, its raw-JSON twin, the problems, and the invoke button. */
function toolForm(tool: ToolDefinition): HTMLElement {
  const params = tool.parameters ?? [];
  let raw = false;
  const fields: Field[] = [];
  const problemsList = h("ul", { class: "problems all", "aria-live": "polite" });
  const invoke = h("button", { type: "submit", class: "primary", "data-action": "invoke" }, "Invoke");
  const anyway = h(
    "button",
    { type: "button", class: "link", hidden: true, onclick: () => void send(true) },
    "send anyway (see the plugin's own answer)",
  );
  const rawBox = h("textarea", {
    class: "json raw-args",
    rows: 8,
    spellcheck: false,
    hidden: true,
    "aria-label": "arguments as JSON",
  });
  const fieldsBox = h("div", { class: "fields" });
  const modeForm = h("button", { type: "button", class: "tab-button active", onclick: () => setMode(false) }, "Form");
  const modeRaw = h(
    "button",
    { type: "button", class: "tab-button", "data-action": "raw", onclick: () => setMode(true) },
    "Raw JSON",
  );

  /** The arguments as they stand, and the problems the runtime would answer -32602 with. */
  const collect = (): { args?: Record<string, unknown>; problems: ArgumentProblem[] } => {
    if (raw) {
      try {
        const value = JSON.parse(rawBox.value || "{}") as unknown;
        if (!value || typeof value !== "object" || Array.isArray(value))
          return { problems: [{ parameter: "(arguments)", message: "must be a JSON object" }] };
        return {
          args: value as Record<string, unknown>,
          problems: argumentProblems(tool, value as Record<string, unknown>),
        };
      } catch (error) {
        return { problems: [{ parameter: "(arguments)", message: `not JSON: ${(error as Error).message}` }] };
      }
    }
    const args: Record<string, unknown> = {};
    const local: ArgumentProblem[] = [];
    for (const f of fields) {
      const v = f.read();
      if (!v.given) continue;
      if ("error" in v) local.push({ parameter: f.param.name, message: v.error });
      else args[f.param.name] = v.value;
    }
    if (local.length)
      return {
        problems: [
          ...local,
          ...argumentProblems(tool, args).filter((p) => !local.some((l) => l.parameter === p.parameter)),
        ],
      };
    return { args, problems: argumentProblems(tool, args) };
  };

  const check = () => {
    const { args, problems } = collect();
    for (const f of fields) f.mark(problems.filter((p) => p.parameter === f.param.name).map((p) => p.message));
    problemsList.replaceChildren(
      ...problems.map((p) => h("li", null, h("strong", null, p.parameter), `: ${p.message}`)),
    );
    invoke.disabled = problems.length > 0;
    anyway.hidden = problems.length === 0 || args === undefined;
    return { args, problems };
  };

  const setMode = (toRaw: boolean) => {
    if (toRaw === raw) return;
    if (toRaw) {
      const { args } = collect();
      rawBox.value = JSON.stringify(args ?? {}, null, 2);
    } else {
      const { args } = collect();
      if (!args) return showError(new ApiFailure("fix the JSON before going back to the form", 400));
      for (const f of fields) f.write(args[f.param.name]);
    }
    raw = toRaw;
    rawBox.hidden = !raw;
    fieldsBox.hidden = raw;
    modeForm.classList.toggle("active", !raw);
    modeRaw.classList.toggle("active", raw);
    check();
  };

  const send = async (force = false) => {
    const { args, problems } = check();
    if (!args || (problems.length && !force)) return;
    invoke.disabled = true;
    invoke.textContent = "Invoking…";
    const invokeId = `inv-page-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const running = runningCard(tool.name, invokeId);
    try {
      const answer = await post<InvokeAnswer>("/api/invoke", { tool: tool.name, arguments: args, invokeId });
      store.addResult({ ...answer, tool: tool.name, arguments: args, at: new Date() });
    } catch (error) {
      showError(error);
    } finally {
      running.stop();
      invoke.textContent = "Invoke";
      check();
    }
  };

  for (const p of params) {
    const f = fieldFor(p, `f-${tool.name}`, check);
    fields.push(f);
    fieldsBox.appendChild(f.el);
  }
  rawBox.addEventListener("input", check);
  const form = h(
    "form",
    { class: "tool-form", "data-tool": tool.name, onsubmit: (e: Event) => (e.preventDefault(), void send()) },
    h("div", { class: "tool-head" }, h("h2", null, tool.name), h("div", { class: "modes" }, modeForm, modeRaw)),
    h(
      "p",
      { class: "desc" },
      tool.description,
      tool.timeout ? h("span", { class: "muted" }, ` (timeout ${tool.timeout} s)`) : null,
    ),
    params.length ? null : h("p", { class: "muted" }, "no parameters"),
    fieldsBox,
    rawBox,
    problemsList,
    h("div", { class: "actions" }, invoke, anyway),
  );
  check();
  return form;
}

export function toolsView(): HTMLElement {
  const list = h("nav", { class: "tool-list", "aria-label": "tools" });
  const formBox = h("div", { class: "form-box" });
  const results = h("div", { class: "results", "aria-label": "results" });
  const creds = credentialsBox();
  let selected: string | undefined;
  let manifestKey = "";

  const select = (name: string) => {
    selected = name;
    const tool = store.state.plugin.manifest?.tools?.find((t) => t.name === name);
    for (const b of list.querySelectorAll("button")) b.classList.toggle("active", b.dataset.tool === name);
    fill(formBox, tool ? toolForm(tool) : h("p", { class: "muted" }, "no such tool"));
  };

  const render = () => {
    const manifest = store.state.plugin.manifest;
    const key = JSON.stringify(manifest ?? null);
    if (key === manifestKey) return;
    manifestKey = key;
    const tools = Array.isArray(manifest?.tools) ? manifest.tools : [];
    fill(
      list,
      tools.length
        ? tools.map((t) =>
            h(
              "button",
              { type: "button", "data-tool": t.name, onclick: () => select(t.name) },
              h("span", { class: "name" }, t.name),
              h("span", { class: "desc" }, t.description),
            ),
          )
        : h("p", { class: "muted" }, manifest ? "the plugin serves no tools" : "waiting for the plugin's manifest…"),
    );
    if (tools.length) select(selected && tools.some((t) => t.name === selected) ? selected : tools[0]!.name);
    else fill(formBox);
  };
  store.on("plugin", render);
  store.on("results", (rs) =>
    fill(results, rs.length ? rs.map(resultCard) : h("p", { class: "muted" }, "results of your invokes show here")),
  );
  render();
  fill(results, h("p", { class: "muted" }, "results of your invokes show here"));
  return h(
    "section",
    { class: "view tools-view", "data-view": "tools" },
    list,
    h("div", { class: "tool-main" }, creds, errorLine, formBox, h("h3", null, "Results"), runningBox, results),
  );
}
