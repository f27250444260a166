/**
 * host_capabilities against the host-service helpers the tools call: a call whose method no
 * declared capability unlocks, and a declared capability no call needs, are warnings (errors
 * under --strict). Only as far as the extractor looked (`Extraction.hostCalls`).
 */
import {
  capabilitiesForMethod,
  HOST_CAPABILITIES,
  isHostCapability,
  type Diagnostic,
  type HostCapability,
  type Manifest,
} from "../protocol/index.js";
import type { HostCall, SourceLocation } from "./model.js";

const EXECUTA_JSON = "executa.json";

/** "files/" is the family of methods the prefix names. */
const showMethod = (method: string) => (method.endsWith("/") || method.endsWith(".") ? `${method}*` : method);

/** The first capability, then the others: listed when few, else by the family they share (`"aps.kv" (or an "aps.scope.*" capability)`). */
function needsText(needs: HostCapability[]): string {
  const [first, ...others] = needs;
  const shown = JSON.stringify(first);
  if (others.length === 0) return shown;
  if (others.length <= 2) return `${shown} (or ${others.map((c) => JSON.stringify(c)).join(", ")})`;
  return `${shown} (or an ${JSON.stringify(`${sharedFamily(others)}.*`)} capability)`;
}

/** The dotted prefix every name shares, e.g. "aps.scope" for aps.scope.admin and aps.scope.user.read. */
function sharedFamily(names: readonly string[]): string {
  const parts = names[0]!.split(".");
  let n = parts.length - 1;
  while (n > 0 && !names.every((name) => name.startsWith(`${parts.slice(0, n).join(".")}.`))) n--;
  return parts.slice(0, Math.max(n, 1)).join(".");
}

function missingCapabilities(manifest: Manifest, hostCalls: HostCall[][], declared: string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  manifest.tools.forEach((tool, i) => {
    const reported = new Set<string>();
    for (const call of hostCalls[i] ?? []) {
      if (call.method === undefined) continue;
      const needs = capabilitiesForMethod(call.method);
      if (needs.length === 0 || needs.some((c) => declared.includes(c))) continue;
      const key = `${call.file}:${call.line}:${call.column}:${call.method}`;
      if (reported.has(key)) continue;
      reported.add(key);
      out.push({
        severity: "warning",
        message: `${tool.name} calls ${call.helper} (${showMethod(call.method)}), which needs ${needsText(needs)} in host_capabilities; add it to executa.json and run executa manifest`,
        file: call.file,
        line: call.line,
        column: call.column,
      });
    }
  });
  return out;
}

function unusedCapabilities(
  hostCalls: HostCall[][],
  declared: unknown[],
  executaJson: string | undefined,
): Diagnostic[] {
  const calls = hostCalls.flat();
  // A request whose method the code computes could need any capability.
  if (calls.some((c) => c.method === undefined)) return [];
  const out: Diagnostic[] = [];
  declared.forEach((cap, index) => {
    // A capability with no Executa wire method (llm.audio.*, app-side ones) has no helper to look for.
    if (typeof cap !== "string" || !isHostCapability(cap) || HOST_CAPABILITIES[cap].methods.length === 0) return;
    if (calls.some((c) => capabilitiesForMethod(c.method!).includes(cap))) return;
    const sends = HOST_CAPABILITIES[cap].methods.map(showMethod).join(" or ");
    out.push({
      severity: "warning",
      message: `host_capabilities declares ${JSON.stringify(cap)}, but no tool calls a helper that sends ${sends}; remove it from executa.json and run executa manifest`,
      hint: "executa follows each tool into its own project's functions only: a call in another package, or through a function kept in a variable, goes unseen",
      path: `$.host_capabilities[${index}]`,
      ...locateArrayItem(executaJson, "host_capabilities", index),
    });
  });
  return out;
}

/**
 * The warnings for `manifest`, whose host_capabilities come from executa.json (its text, when
 * there is one). `everyTool`: no tool was left out for a source error (else a capability only the
 * missing tool uses would look unused).
 */
export function hostUsageDiagnostics(
  manifest: Manifest,
  hostCalls: HostCall[][] | undefined,
  executaJson: string | undefined,
  everyTool = true,
): Diagnostic[] {
  if (!hostCalls) return [];
  const listed: unknown = manifest.host_capabilities;
  const declared: unknown[] = Array.isArray(listed) ? listed : [];
  const names = declared.filter((c): c is string => typeof c === "string");
  return [
    ...missingCapabilities(manifest, hostCalls, names),
    ...(everyTool ? unusedCapabilities(hostCalls, declared, executaJson) : []),
  ];
}

/** Where item `index` of the top-level array `key` of a JSON text (executa.json) starts; the file alone when it cannot tell. */
export function locateArrayItem(
  text: string | undefined,
  key: string,
  index: number,
): Pick<Diagnostic, "file"> & Partial<SourceLocation> {
  const file = { file: EXECUTA_JSON };
  if (text === undefined) return file;
  const tokens = [...text.matchAll(/"(?:[^"\\]|\\.)*"|[[\]{},:]/g)];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]![0];
    if (t === "{" || t === "[") depth++;
    else if (t === "}" || t === "]") depth--;
    else if (depth === 1 && t === JSON.stringify(key) && tokens[i + 1]?.[0] === ":" && tokens[i + 2]?.[0] === "[") {
      let item = 0;
      let inner = 0;
      for (let j = i + 3; j < tokens.length; j++) {
        const u = tokens[j]![0];
        if (inner === 0 && u === "]") return file;
        if (inner === 0 && u === ",") item++;
        else if (inner === 0 && item === index) return position(text, tokens[j]!.index);
        if (u === "{" || u === "[") inner++;
        else if (u === "}" || u === "]") inner--;
      }
      return file;
    }
  }
  return file;
}

function position(text: string, offset: number): SourceLocation {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { file: EXECUTA_JSON, line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}
