/**
 * The manifest as the page can show it, whatever the plugin served: lists that are not lists
 * become empty, entries that are not objects are left out, and each is named in `problems` (the
 * Plugin view lists them). A field of the wrong type stays as it is: the DOM helper shows any
 * value that is not text as an invalid mark, so the page never fails on a describe.
 */
import type { Manifest } from "../../protocol/index.js";

export interface ManifestView {
  manifest: Manifest;
  problems: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const kind = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`;
const TEXT_FIELDS = ["name", "display_name", "version", "description"];

function objects(
  owner: Record<string, unknown>,
  key: string,
  where: string,
  problems: string[],
): Record<string, unknown>[] {
  const list = owner[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    problems.push(`${where}${key} is ${kind(list)}, not a list`);
    return [];
  }
  return list.filter(
    (item, i) => isObject(item) || (problems.push(`${where}${key}[${i}] is ${kind(item)}, not an object`), false),
  ) as Record<string, unknown>[];
}

function texts(owner: Record<string, unknown>, where: string, problems: string[]): void {
  for (const key of TEXT_FIELDS)
    if (owner[key] !== undefined && typeof owner[key] !== "string")
      problems.push(`${where}${key} is ${kind(owner[key])}, not text`);
}

export function manifestView(raw: unknown): ManifestView | undefined {
  if (raw === undefined) return undefined;
  const problems: string[] = [];
  if (!isObject(raw))
    return {
      manifest: { name: "", version: "", tools: [] } as unknown as Manifest,
      problems: [`the manifest is ${kind(raw)}, not an object`],
    };
  texts(raw, "", problems);
  const tools = objects(raw, "tools", "", problems).map((tool, t) => {
    const where = `tools[${t}].`;
    texts(tool, where, problems);
    if (typeof tool.name !== "string") tool = { ...tool, name: `tool ${t + 1}` };
    const parameters = objects(tool, "parameters", where, problems).filter((p, i) => {
      texts(p, `${where}parameters[${i}].`, problems);
      return (
        typeof p.name === "string" ||
        (problems.push(`${where}parameters[${i}] has no name: left out of the form`), false)
      );
    });
    return { ...tool, parameters };
  });
  const caps = raw.host_capabilities;
  const host_capabilities =
    caps === undefined
      ? undefined
      : Array.isArray(caps)
        ? caps
        : (problems.push(`host_capabilities is ${kind(caps)}, not a list`), []);
  const credentials = objects(raw, "credentials", "", problems);
  credentials.forEach((c, i) => texts(c, `credentials[${i}].`, problems));
  return {
    manifest: { ...raw, tools, credentials, ...(host_capabilities && { host_capabilities }) } as unknown as Manifest,
    problems,
  };
}
