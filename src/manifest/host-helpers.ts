/**
 * The runtimes' host-service helpers, per language, and the reverse-RPC method each sends
 * (docs/host-services.md; test/manifest/host-helpers.test.ts proves this table equal to the page).
 * The extractors report every call they find on a value reached from a tool's context as a
 * `RawHostCall`; `resolveHostCalls` keeps the ones that are helpers and names their method.
 */
import type { Language } from "../project/index.js";
import type { HostCall, SourceLocation } from "./model.js";

/** A call on a value reached from a tool's context, as an extractor found it. */
export interface RawHostCall extends SourceLocation {
  /** What the callee hangs off: the host client, or an agent session (a value of that type). */
  root: "host" | "session";
  /** The names from the root to the callee; `"()"` stands for a call's result: `["agent", "create", "()", "run"]`. */
  path: string[];
  /** Each positional argument: its value when it is a string constant, else null. */
  args: (string | null)[];
  /** Keyword arguments that are string constants (Python). */
  keywords?: Record<string, string>;
  /** The callee as written. */
  callee: string;
}

export interface HelperTable {
  /** Helper (names from the host client) -> the method it sends; null: it sends nothing itself. */
  host: ReadonlyMap<string, string | null>;
  /** The host helpers whose result is an agent session. */
  sessionFactories: readonly string[];
  /** Agent session method -> the method it sends. */
  session: ReadonlyMap<string, string>;
  /** The generic helper, and where its method argument is. */
  request: { name: string; argument: number; keyword?: string };
}

/** TypeScript and Python name the helpers alike, but for one file helper. */
function scripted(downloadUrl: string): Omit<HelperTable, "request"> {
  return {
    host: new Map<string, string | null>([
      ["sample", "sampling/createMessage"],
      ["agent.complete", "agent/complete"],
      ["agent.create", "agent/session.create"],
      ["agent.list", "agent/session.list"],
      ["agent.session", null],
      ["embeddings.create", "embeddings/create"],
      ["web.search", "web/search"],
      ["web.fetch", "web/fetch"],
      ["image.generate", "image/generate"],
      ["image.edit", "image/edit"],
      ["upload", "host/uploadFile"],
      ["files.upload", "files/"],
      [downloadUrl, "files/download_url"],
      ["files.list", "files/list"],
      ["files.delete", "files/delete"],
      ["storage.get", "storage/get"],
      ["storage.set", "storage/set"],
      ["storage.delete", "storage/delete"],
      ["storage.list", "storage/list"],
    ]),
    sessionFactories: ["agent.create", "agent.session"],
    session: new Map([
      ["run", "agent/session.run"],
      ["cancel", "agent/session.cancel"],
      ["history", "agent/session.history"],
      ["refresh", "agent/session.refresh"],
      ["delete", "agent/session.delete"],
    ]),
  };
}

export const HOST_HELPERS: Record<Language, HelperTable> = {
  ts: { ...scripted("files.downloadUrl"), request: { name: "request", argument: 0 } },
  python: { ...scripted("files.download_url"), request: { name: "request", argument: 0, keyword: "method" } },
  go: {
    host: new Map<string, string | null>([
      ["Sample", "sampling/createMessage"],
      ["AgentComplete", "agent/complete"],
      ["AgentCreate", "agent/session.create"],
      ["AgentList", "agent/session.list"],
      ["AgentSession", null],
      ["Embed", "embeddings/create"],
      ["WebSearch", "web/search"],
      ["WebFetch", "web/fetch"],
      ["ImageGenerate", "image/generate"],
      ["ImageEdit", "image/edit"],
      ["Upload", "host/uploadFile"],
      ["FilesUpload", "files/"],
      ["FilesDownloadURL", "files/download_url"],
      ["FilesList", "files/list"],
      ["FilesDelete", "files/delete"],
      ["StorageGet", "storage/get"],
      ["StorageSet", "storage/set"],
      ["StorageDelete", "storage/delete"],
      ["StorageList", "storage/list"],
    ]),
    sessionFactories: ["AgentCreate", "AgentSession"],
    session: new Map([
      ["Run", "agent/session.run"],
      ["Cancel", "agent/session.cancel"],
      ["History", "agent/session.history"],
      ["Refresh", "agent/session.refresh"],
      ["Delete", "agent/session.delete"],
    ]),
    request: { name: "Request", argument: 1 },
  },
};

/** The helper as a reader knows it: the callee as written, without Go's `executa.FromContext(ctx).`. */
function helperName(raw: RawHostCall): string {
  const text = raw.callee.replace(/\s+/g, " ").replace(/^.*\bFromContext\([^()]*\)\./, "");
  if (text.length <= 60) return text;
  return [raw.root, ...raw.path].join(".").replaceAll(".()", "()");
}

/** The method a raw call sends; `null` when it is not a helper that sends one. */
function methodOf(table: HelperTable, raw: RawHostCall): string | undefined | null {
  let root = raw.root;
  let path = raw.path;
  const result = path.indexOf("()");
  if (result >= 0) {
    // Only an agent session is a helper's result that has helpers of its own.
    if (root !== "host" || !table.sessionFactories.includes(path.slice(0, result).join("."))) return null;
    root = "session";
    path = path.slice(result + 1);
    if (path.includes("()")) return null;
  }
  const name = path.join(".");
  if (root === "session") return table.session.get(name) ?? null;
  if (name === table.request.name) {
    const keyword = table.request.keyword && raw.keywords ? raw.keywords[table.request.keyword] : undefined;
    // A method that is not a constant could be anything.
    return raw.args[table.request.argument] ?? keyword ?? undefined;
  }
  return table.host.get(name) ?? null;
}

/** The raw calls that are host-service helpers, with the method each sends. */
export function resolveHostCalls(language: Language, raw: readonly RawHostCall[]): HostCall[] {
  const table = HOST_HELPERS[language];
  const out: HostCall[] = [];
  for (const call of raw) {
    const method = methodOf(table, call);
    if (method === null) continue;
    out.push({ file: call.file, line: call.line, column: call.column, method, helper: helperName(call) });
  }
  return out;
}

/** Every tool's raw calls resolved; absent when the extractor did not look. */
export function resolveToolHostCalls(
  language: Language,
  raw: readonly RawHostCall[][] | undefined,
): { hostCalls?: HostCall[][] } {
  return raw ? { hostCalls: raw.map((calls) => resolveHostCalls(language, calls)) } : {};
}
