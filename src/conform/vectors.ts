/**
 * The runtime vectors: docs/runtime-vectors.jsonl, one language-neutral test of the runtime
 * contract per line. `loadVectors` reads and checks the file; `runVector` (vector-runner.ts)
 * plays one vector against a plugin. The schema is documented in docs/runtime-contract.md.
 */
import { readFileSync } from "node:fs";
import { checkPattern, checkSendValue } from "./vector-match.js";

export { runVectors, type VectorResult } from "./vector-runner.js";

/** The rows of the contract a vector belongs to. */
export const ROWS = [
  "framing",
  "requests",
  "ids",
  "methods",
  "validation",
  "envelopes",
  "concurrency",
  "context",
  "reverse",
  "results",
  "stdout",
  "stopping",
] as const;
export type Row = (typeof ROWS)[number];

/** The fixed test-only tool set every language's test plugin implements (see the contract). */
export const TEST_TOOLS = [
  "echo",
  "nothing",
  "fail",
  "nan",
  "slow",
  "slow_async",
  "big",
  "size",
  "credential",
  "context",
  "sample",
  "storage",
  "host_call",
  "print",
  "lone_surrogate",
  "service",
] as const;
export type TestTool = (typeof TEST_TOOLS)[number];

/** Raw bytes: text (UTF-8), hex, or one string repeated to a number of bytes. */
export type RawPart = string | { hex: string } | { repeat: string; bytes: number };

export type Step =
  | { send: unknown; bytes?: number; eol?: string }
  | { send_raw: RawPart[] }
  | { expect: unknown; within_ms?: number; via?: "inline" | "file" }
  | { expect_unordered: unknown[]; within_ms?: number }
  | { expect_silence_ms: number }
  | { close_stdin: true }
  | { signal: "SIGTERM" | "SIGINT" | "SIGHUP" }
  | { wait_ms: number }
  | { pause_stdout: true }
  | { resume_stdout: true }
  | { expect_exit: { code: number; within_ms: number; after_ms?: number } };

/** A scripted answer of the host to a reverse request (otherwise the mock host answers). */
export interface HostRule {
  method: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
  /** The answer's members besides `jsonrpc` and `id`, as sent: a malformed answer (`{}` has neither result nor error). */
  reply?: Record<string, unknown>;
}

export interface Vector {
  id: string;
  row: Row;
  title: string;
  tools: TestTool[];
  steps: Step[];
  /** Extra environment of the plugin. */
  env?: Record<string, string>;
  /** Replaces the test plugin's `host_capabilities` (EXECUTA_TEST_CAPABILITIES). */
  capabilities?: string[];
  host?: HostRule[];
  /** The plugin's TMPDIR: a private folder by default; "relative" (a relative path) or "unwritable" (a path under a file). */
  tmpdir?: "relative" | "unwritable";
  /** RLIMIT_FSIZE for the plugin, in bytes (a full disk, as far as the plugin can tell). POSIX only. */
  file_size_limit?: number;
  /** Frames left unexpected at the end are not a failure (after a stalled host, say). */
  ignore_rest?: boolean;
  /** Needs POSIX signals or limits. */
  posix?: boolean;
  /** Needs a plugin of its own, from the first byte of its stdin (otherwise it may share one with other vectors). */
  fresh?: boolean;
  /** The 1-based line in the file. */
  line: number;
}

const STEP_KEYS: Record<string, readonly string[]> = {
  send: ["bytes", "eol"],
  send_raw: [],
  expect: ["within_ms", "via"],
  expect_unordered: ["within_ms"],
  expect_silence_ms: [],
  close_stdin: [],
  signal: [],
  wait_ms: [],
  pause_stdout: [],
  resume_stdout: [],
  expect_exit: [],
};
const VECTOR_KEYS = [
  "id",
  "row",
  "title",
  "tools",
  "steps",
  "env",
  "capabilities",
  "host",
  "tmpdir",
  "file_size_limit",
  "ignore_rest",
  "posix",
  "fresh",
];

export class VectorFileError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

function checkRaw(part: unknown, path: string): string[] {
  if (typeof part === "string") return [];
  if (isObj(part) && typeof part.hex === "string" && Object.keys(part).length === 1) {
    return /^(?:[0-9a-f]{2})*$/i.test(part.hex) ? [] : [`${path}: hex must be pairs of hex digits`];
  }
  if (
    isObj(part) &&
    typeof part.repeat === "string" &&
    part.repeat !== "" &&
    isCount(part.bytes) &&
    Object.keys(part).length === 2
  )
    return [];
  return [`${path}: a raw part is a string, {"hex": "…"} or {"repeat": "…", "bytes": n}`];
}

function checkStep(step: unknown, path: string): string[] {
  if (!isObj(step)) return [`${path}: a step is an object`];
  const actions = Object.keys(step).filter((k) => Object.hasOwn(STEP_KEYS, k));
  if (actions.length !== 1) return [`${path}: a step has exactly one of ${Object.keys(STEP_KEYS).join(", ")}`];
  const action = actions[0]!;
  const extra = Object.keys(step).filter((k) => k !== action && !STEP_KEYS[action]!.includes(k));
  if (extra.length > 0) return [`${path}: ${action} does not take ${extra.join(", ")}`];
  const arg = step[action];
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => ok || problems.push(`${path}.${action}: ${what}`);
  switch (action) {
    case "send":
      problems.push(...checkSendValue(arg, `${path}.send`));
      if (step.bytes !== undefined) need(isCount(step.bytes), "bytes is a byte count");
      if (step.eol !== undefined)
        need(typeof step.eol === "string" && /^\r?\n?$/.test(step.eol), 'eol is "\\n", "\\r\\n" or ""');
      break;
    case "send_raw":
      if (need(Array.isArray(arg), "takes a list of raw parts"))
        (arg as unknown[]).forEach((p, i) => problems.push(...checkRaw(p, `${path}.send_raw[${i}]`)));
      break;
    case "expect":
      problems.push(...checkPattern(arg, `${path}.expect`));
      if (step.via !== undefined) need(step.via === "inline" || step.via === "file", 'via is "inline" or "file"');
      break;
    case "expect_unordered":
      if (need(Array.isArray(arg) && arg.length > 0, "takes a non-empty list of patterns")) {
        (arg as unknown[]).forEach((p, i) => problems.push(...checkPattern(p, `${path}.expect_unordered[${i}]`)));
      }
      break;
    case "expect_exit":
      need(
        isObj(arg) &&
          Number.isInteger(arg.code) &&
          isCount(arg.within_ms) &&
          (arg.after_ms === undefined || isCount(arg.after_ms)),
        "takes {code, within_ms, after_ms?}",
      );
      break;
    case "signal":
      need(arg === "SIGTERM" || arg === "SIGINT" || arg === "SIGHUP", "is SIGTERM, SIGINT or SIGHUP");
      break;
    case "expect_silence_ms":
    case "wait_ms":
      need(isCount(arg), "takes a number of ms");
      break;
    default:
      need(arg === true, "takes true");
  }
  if (step.within_ms !== undefined && !isCount(step.within_ms)) problems.push(`${path}: within_ms is a number of ms`);
  return problems;
}

function checkVector(v: Record<string, unknown>, knownTools: readonly string[]): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => ok || problems.push(what);
  const extra = Object.keys(v).filter((k) => !VECTOR_KEYS.includes(k));
  need(extra.length === 0, `unknown key ${extra.join(", ")} (a vector has ${VECTOR_KEYS.join(", ")})`);
  need(
    typeof v.id === "string" && /^[a-z0-9-]+\.[a-z0-9.-]+$/.test(v.id),
    'id is "<row>.<name>" in lowercase, digits and -',
  );
  need((ROWS as readonly string[]).includes(v.row as string), `row is one of ${ROWS.join(", ")}`);
  need(typeof v.id !== "string" || v.id.startsWith(`${String(v.row)}.`), "id starts with its row");
  need(typeof v.title === "string" && v.title.length > 0, "title is a sentence");
  if (need(Array.isArray(v.tools), "tools is a list (empty when the vector needs none)")) {
    for (const t of v.tools as unknown[])
      need(
        knownTools.includes(t as string),
        `tool ${JSON.stringify(t)} is not in the test tool set (${knownTools.join(", ")})`,
      );
  }
  if (need(Array.isArray(v.steps) && v.steps.length > 0, "steps is a non-empty list")) {
    (v.steps as unknown[]).forEach((s, i) => problems.push(...checkStep(s, `steps[${i}]`)));
  }
  if (v.env !== undefined)
    need(isObj(v.env) && Object.values(v.env).every((x) => typeof x === "string"), "env maps names to strings");
  if (v.capabilities !== undefined)
    need(
      Array.isArray(v.capabilities) && v.capabilities.every((x) => typeof x === "string"),
      "capabilities is a list of strings",
    );
  if (v.host !== undefined) {
    const answers = (r: Record<string, unknown>) =>
      ["result", "error", "reply"].filter((k) => k in r).length === 1 && (!("reply" in r) || isObj(r.reply));
    const ok = Array.isArray(v.host) && v.host.every((r) => isObj(r) && typeof r.method === "string" && answers(r));
    if (need(ok, "host is a list of {method, params?, result | error | reply}")) {
      (v.host as Record<string, unknown>[]).forEach(
        (r, i) => r.params !== undefined && problems.push(...checkPattern(r.params, `host[${i}].params`)),
      );
    }
  }
  if (v.tmpdir !== undefined)
    need(v.tmpdir === "relative" || v.tmpdir === "unwritable", 'tmpdir is "relative" or "unwritable"');
  if (v.file_size_limit !== undefined)
    need(isCount(v.file_size_limit) && v.posix === true, "file_size_limit is a byte count, and needs posix: true");
  for (const flag of ["ignore_rest", "posix", "fresh"])
    if (v[flag] !== undefined) need(typeof v[flag] === "boolean", `${flag} is true or false`);
  return problems;
}

/** Parses the text of a vector file; every problem is reported as `source:line: message`. */
export function parseVectors(text: string, source: string, knownTools: readonly string[] = TEST_TOOLS): Vector[] {
  const vectors: Vector[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push(`${source}:${line}: not JSON: ${(error as Error).message}`);
      return;
    }
    if (!isObj(value)) {
      problems.push(`${source}:${line}: a vector is a JSON object`);
      return;
    }
    const found = checkVector(value, knownTools);
    problems.push(...found.map((p) => `${source}:${line}: ${typeof value.id === "string" ? `${value.id}: ` : ""}${p}`));
    if (typeof value.id === "string") {
      if (seen.has(value.id)) problems.push(`${source}:${line}: id ${value.id} is also on line ${seen.get(value.id)}`);
      seen.set(value.id, line);
    }
    if (found.length === 0) vectors.push({ ...(value as unknown as Vector), line });
  });
  if (problems.length > 0) throw new VectorFileError(problems.join("\n"));
  return vectors;
}

/** Reads and checks a vector file (throws VectorFileError listing every problem with its line). */
export function loadVectors(path: string, knownTools: readonly string[] = TEST_TOOLS): Vector[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new VectorFileError(`cannot read the vector file ${path}: ${(error as Error).message}`);
  }
  return parseVectors(text, path, knownTools);
}
