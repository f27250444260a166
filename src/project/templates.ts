/**
 * The templates `create` offers. Each is a set of tools (with their tests) over the same project:
 * templates/<lang>/ is what every template shares, templates/<lang>/variants/<name>/ the tools of
 * one, and templates/variants/<name>.json the facts of it every language renders the same
 * (executa.json's credentials and host capabilities, the README's tools table, the protocol test).
 */
import { ExecutaError } from "../common/errors.js";

export const TEMPLATES = {
  minimal: { summary: "one short tool (greet) and its test" },
  examples: {
    summary: "three example tools: text statistics, a credential (HMAC signing) and the host's model (summarize)",
  },
  services: {
    summary:
      "the protocol 2.0 host services: the host's model with structured output, key-value storage and an agent session",
  },
} as const;

export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];
export const DEFAULT_TEMPLATE: TemplateName = "examples";

/** One line per template, `name: summary`, for help and errors. */
export function templateChoices(indent = "  "): string {
  return TEMPLATE_NAMES.map((name) => `${indent}${name.padEnd(9)} ${TEMPLATES[name].summary}`).join("\n");
}

/** `--template`; an unknown value lists the choices, one line each. */
export function resolveTemplate(value: string): TemplateName {
  const name = value.trim().toLowerCase();
  if ((TEMPLATE_NAMES as readonly string[]).includes(name)) return name as TemplateName;
  throw new ExecutaError(`unknown template '${value}'; the templates are:\n${templateChoices()}`, {
    hint: `use --template with one of: ${TEMPLATE_NAMES.join(", ")} (default ${DEFAULT_TEMPLATE})`,
  });
}
