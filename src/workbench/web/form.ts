/**
 * One form field per tool parameter, by its manifest type: text, integer, number, boolean
 * (a checkbox, or a three-way select when it may be left out), enum (a select), arrays (a row
 * per item, by the item type) and objects (a JSON editor that says what does not parse).
 * Defaults are filled in, required parameters are marked, and each field reads back as the
 * JSON value the invoke will carry, or "not given".
 */
import type { Json, Parameter, ParameterType } from "../../protocol/index.js";
import { h } from "./dom.js";

/** What a field holds: a value, nothing (the parameter is left out), or text that is not a value yet. */
export type FieldValue = { given: false } | { given: true; value: unknown } | { given: true; error: string };

export interface Field {
  param: Parameter;
  el: HTMLElement;
  read(): FieldValue;
  write(value: unknown): void;
  /** Shows (or clears) the runtime's problems with this parameter. */
  mark(problems: string[]): void;
}

const isRequired = (p: Parameter) => p.required !== false;
const itemTypeOf = (p: Parameter): ParameterType => p.items?.type ?? p.items_type ?? "string";

export function typeLabel(p: Parameter): string {
  if (p.enum) return `enum (${p.type})`;
  return p.type === "array" ? `array<${itemTypeOf(p)}>` : p.type;
}

function parseJson(text: string, wantObject: boolean): FieldValue {
  if (!text.trim()) return { given: false };
  try {
    const value = JSON.parse(text) as unknown;
    if (wantObject && (value === null || typeof value !== "object" || Array.isArray(value)))
      return { given: true, error: "must be a JSON object {…}" };
    return { given: true, value };
  } catch (error) {
    return { given: true, error: `not JSON: ${(error as Error).message}` };
  }
}

/** An input for one scalar of a type (a parameter, or an array item). */
interface Scalar {
  el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  read(): FieldValue;
  write(value: unknown): void;
}

function numberInput(type: "integer" | "number", id: string): Scalar {
  const el = h("input", { type: "number", step: type === "integer" ? "1" : "any", id, "data-kind": type });
  return {
    el,
    read: () => {
      if (el.value.trim() === "")
        return el.validity.badInput ? { given: true, error: `not a ${type}` } : { given: false };
      return { given: true, value: Number(el.value) };
    },
    write: (v) => (el.value = v === undefined || v === null ? "" : String(v)),
  };
}

function jsonInput(id: string, wantObject: boolean, onInput: () => void): Scalar {
  const el = h("textarea", {
    id,
    rows: 3,
    spellcheck: false,
    class: "json",
    "data-kind": "json",
    placeholder: wantObject ? '{"key": "value"}' : "JSON",
  });
  el.addEventListener("input", onInput);
  return {
    el,
    read: () => parseJson(el.value, wantObject),
    write: (v) => (el.value = v === undefined || v === null ? "" : JSON.stringify(v, null, 2)),
  };
}

function selectInput(id: string, options: { label: string; value: unknown }[], kind: string): Scalar {
  const el = h(
    "select",
    { id, "data-kind": kind },
    options.map((o, i) => h("option", { value: String(i) }, o.label)),
  );
  return {
    el,
    read: () => {
      const o = options[Number(el.value)];
      return !o || o.value === undefined ? { given: false } : { given: true, value: o.value };
    },
    write: (v) => {
      const i = options.findIndex((o) =>
        o.value === undefined ? v === undefined || v === null : JSON.stringify(o.value) === JSON.stringify(v),
      );
      el.value = String(Math.max(i, 0));
    },
  };
}

function scalarFor(type: ParameterType, id: string, optional: boolean, onInput: () => void): Scalar {
  switch (type) {
    case "integer":
    case "number":
      return numberInput(type, id);
    case "boolean":
      return selectInput(
        id,
        [
          ...(optional ? [{ label: "(not given)", value: undefined }] : []),
          { label: "true", value: true },
          { label: "false", value: false },
        ],
        "boolean",
      );
    case "object":
    case "array":
      return jsonInput(id, type === "object", onInput);
    default: {
      const el = h("textarea", { id, rows: 2, "data-kind": "string" });
      // An empty text box is "not given" for an optional parameter, "" for a required one.
      return {
        el,
        read: () => (el.value === "" && optional ? { given: false } : { given: true, value: el.value }),
        write: (v) => (el.value = v === undefined || v === null ? "" : String(v)),
      };
    }
  }
}

function checkbox(id: string): Scalar {
  const el = h("input", { type: "checkbox", id, "data-kind": "boolean" });
  return { el, read: () => ({ given: true, value: el.checked }), write: (v) => (el.checked = v === true) };
}

/** An array: one row per item, each an input of the item type, plus add and remove. */
function arrayEditor(p: Parameter, id: string, onInput: () => void): Scalar & { box: HTMLElement } {
  const itemType = itemTypeOf(p);
  const list = h("div", { class: "items" });
  const items: { scalar: Scalar; row: HTMLElement }[] = [];
  const add = (value?: unknown) => {
    const scalar = scalarFor(itemType, `${id}-${items.length}`, false, onInput);
    if (value !== undefined) scalar.write(value);
    const row = h(
      "div",
      { class: "item" },
      scalar.el,
      h(
        "button",
        {
          type: "button",
          class: "small",
          title: "remove this item",
          "aria-label": "remove item",
          onclick: () => {
            items.splice(
              items.findIndex((i) => i.row === row),
              1,
            );
            row.remove();
            onInput();
          },
        },
        "×",
      ),
    );
    items.push({ scalar, row });
    list.appendChild(row);
  };
  const hidden = h("input", { type: "hidden", id, "data-kind": "array" });
  const box = h(
    "div",
    { class: "array" },
    hidden,
    list,
    h("button", { type: "button", class: "small add", onclick: () => (add(), onInput()) }, `+ ${itemType}`),
  );
  return {
    el: hidden,
    box,
    read: () => {
      if (items.length === 0) return isRequired(p) ? { given: true, value: [] } : { given: false };
      const values: unknown[] = [];
      for (const [i, { scalar }] of items.entries()) {
        const v = scalar.read();
        if ("error" in v) return { given: true, error: `item ${i}: ${v.error}` };
        values.push(v.given ? v.value : null);
      }
      return { given: true, value: values };
    },
    write: (v) => {
      for (const { row } of items) row.remove();
      items.length = 0;
      if (Array.isArray(v)) for (const item of v) add(item);
    },
  };
}

/** The field for one parameter: its label, input, description and problems. */
export function fieldFor(p: Parameter, idPrefix: string, onInput: () => void): Field {
  const id = `${idPrefix}-${p.name}`;
  const optional = !isRequired(p);
  const hasDefault = p.default !== undefined && p.default !== null;
  let scalar: Scalar;
  let control: HTMLElement;
  if (p.enum) {
    scalar = selectInput(
      id,
      [
        ...(optional && !hasDefault ? [{ label: "(not given)", value: undefined }] : []),
        ...p.enum.map((v: Json) => ({ label: String(v), value: v })),
      ],
      "enum",
    );
    control = scalar.el;
  } else if (p.type === "array") {
    const editor = arrayEditor(p, id, onInput);
    scalar = editor;
    control = editor.box;
  } else if (p.type === "boolean" && (!optional || hasDefault)) {
    scalar = checkbox(id);
    control = scalar.el;
  } else {
    scalar = scalarFor(p.type, id, optional, onInput);
    control = scalar.el;
  }
  if (hasDefault) scalar.write(p.default);
  else if (!optional && p.type === "boolean") scalar.write(false);
  const problems = h("ul", { class: "problems" });
  const el = h(
    "div",
    { class: `field${optional ? "" : " required"}`, "data-param": p.name, "data-type": typeLabel(p) },
    h(
      "label",
      { for: id },
      h("span", { class: "name" }, p.name),
      optional ? null : h("span", { class: "req", title: "required" }, "*"),
      h("span", { class: "type" }, typeLabel(p)),
      hasDefault ? h("span", { class: "default" }, `default ${JSON.stringify(p.default)}`) : null,
    ),
    control,
    p.description ? h("div", { class: "desc" }, p.description) : null,
    problems,
  );
  control.addEventListener("input", onInput);
  control.addEventListener("change", onInput);
  return {
    param: p,
    el,
    read: () => scalar.read(),
    write: (v) => scalar.write(v),
    mark: (list) => {
      el.classList.toggle("invalid", list.length > 0);
      problems.replaceChildren(...list.map((m) => h("li", null, m)));
    },
  };
}
