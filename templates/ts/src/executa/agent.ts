/**
 * `agent/*`: one-shot completions, and agent sessions (create, run, cancel, history, refresh,
 * delete, list) with buffered runs.
 */
import type { InvokeRequests } from "./host.js";
import { sample, type CompleteRequest, type SampleResult } from "./sampling.js";
import { isObject } from "./validate.js";

const SYSTEM_PROMPT_MAX_CHARS = 4000;
const LIST_LIMIT = { min: 1, max: 100 } as const;

/** How long to wait for the host, in ms (never past the invoke's deadline). */
interface Wait {
  timeoutMs?: number;
}

export interface AgentSessionOptions extends Wait {
  /** `"agent"`, the one kind there is. */
  kind?: "agent";
  submode?: "auto" | "fixed";
  fixedClientId?: string;
  label?: string;
  quotaCaps?: Record<string, unknown>;
  /** At most 4,000 characters. */
  systemPrompt?: string;
  ttlSeconds?: number;
  inheritHostTools?: boolean;
  grantedTools?: string[];
}

export interface AgentRunOptions extends Wait {
  attachments?: Record<string, unknown>[];
  recursionLimit?: number;
  runId?: string;
  /** A system prompt for this turn only. */
  systemPrompt?: string;
}

/** One frame of a run: `run_meta`, `token` / `delta` / `message` (with `text`), `tool_call`, `tool_result`, `final`, `complete`. */
export interface AgentFrame {
  event: string;
  text?: string;
  [key: string]: unknown;
}

export interface AgentWarning {
  code: string;
  message: string;
}

/** A finished (buffered) run of an agent session. */
export interface AgentRun {
  runId: string;
  streamId: string;
  frames: AgentFrame[];
  final: AgentFrame | null;
  /** The `run_meta` frame, when the host sent one. */
  meta: AgentFrame | undefined;
  /** `meta.warnings`, such as NO_TOOLS_AVAILABLE (each is also written to the tool's log). */
  warnings: AgentWarning[];
  /** The final frame's text, else the token / delta / message texts joined. */
  text: string;
}

/** An agent session of the host, by its uuid. */
export interface AgentSession {
  readonly uuid: string;
  /** What `agent/session.create` (or the latest refresh) answered; only the uuid for `host.agent.session(uuid)`. */
  info: Record<string, unknown>;
  run(content: string, options?: AgentRunOptions): Promise<AgentRun>;
  cancel(runId: string, options?: Wait): Promise<{ cancelled: boolean; run_id: string }>;
  history(options?: Wait): Promise<{ messages: { role: string; content: unknown }[] }>;
  refresh(options?: Wait & { ttlSeconds?: number }): Promise<Record<string, unknown>>;
  delete(options?: Wait): Promise<{ deleted: boolean }>;
}

export interface AgentClient {
  /** `agent/complete`: a one-shot completion (needs `llm.sample`). */
  complete(request: CompleteRequest): Promise<SampleResult>;
  /** `agent/session.create` (needs `llm.agent.auto`). */
  create(options?: AgentSessionOptions): Promise<AgentSession>;
  /** `agent/session.list`: `limit` 1 to 100 (50 by default). */
  list(options?: Wait & { includeExpired?: boolean; limit?: number }): Promise<{ sessions: Record<string, unknown>[] }>;
  /** A session created earlier (by this or another invoke), by its uuid. */
  session(uuid: string): AgentSession;
}

/** The members that are given (the host takes a missing member and a null alike). */
function given(members: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined && v !== null));
}

function runOf(r: Record<string, unknown>, log: (message: string) => void): AgentRun {
  const frames = (Array.isArray(r.frames) ? r.frames : []).filter(isObject) as AgentFrame[];
  const meta = frames.find((f) => f.event === "run_meta");
  const warnings = (Array.isArray(meta?.warnings) ? meta.warnings : []).filter(isObject) as unknown as AgentWarning[];
  const runId = typeof r.run_id === "string" ? r.run_id : "";
  for (const w of warnings) log(`agent run ${runId}: warning ${String(w.code)}: ${String(w.message)}`);
  const final = isObject(r.final) ? (r.final as AgentFrame) : ([...frames].reverse().find((f) => f.event === "final") ?? null);
  const text =
    typeof final?.text === "string"
      ? final.text
      : frames
          .filter((f) => f.event === "token" || f.event === "delta" || f.event === "message")
          .map((f) => (typeof f.text === "string" ? f.text : ""))
          .join("");
  return { runId, streamId: typeof r.stream_id === "string" ? r.stream_id : "", frames, final, meta, warnings, text };
}

export function agentClient(r: InvokeRequests): AgentClient {
  const invalid = (message: string) => r.invalid("agent/session.create", message);

  const session = (uuid: string, info: Record<string, unknown>): AgentSession => {
    const call = (method: string, params: Record<string, unknown>, options: Wait | undefined) =>
      r.call(`agent/session.${method}`, { app_session_uuid: uuid, ...given(params) }, options?.timeoutMs);
    const s: AgentSession = {
      uuid,
      info,
      run: async (content, options = {}) =>
        runOf(
          await call("run", { content, attachments: options.attachments, recursion_limit: options.recursionLimit, run_id: options.runId, systemPrompt: options.systemPrompt }, options),
          r.log,
        ),
      cancel: (runId, options) => call("cancel", { run_id: runId }, options) as Promise<never>,
      history: (options) => call("history", {}, options) as Promise<never>,
      refresh: async (options = {}) => {
        const result = await call("refresh", { ttl_seconds: options.ttlSeconds }, options);
        s.info = { ...s.info, ...result };
        return result;
      },
      delete: (options) => call("delete", {}, options) as Promise<never>,
    };
    return s;
  };

  return {
    complete: (request) => sample(r, request, "agent/complete"),
    create: async (options = {}) => {
      if (options.systemPrompt !== undefined && [...options.systemPrompt].length > SYSTEM_PROMPT_MAX_CHARS) {
        throw invalid(`system_prompt is ${[...options.systemPrompt].length} characters; the host accepts at most ${SYSTEM_PROMPT_MAX_CHARS}`);
      }
      const params = given({
        kind: options.kind ?? "agent",
        agent_submode: options.submode,
        fixed_client_id: options.fixedClientId,
        label: options.label,
        quota_caps: options.quotaCaps,
        system_prompt: options.systemPrompt,
        ttl_seconds: options.ttlSeconds,
        inherit_host_tools: options.inheritHostTools,
        granted_tools: options.grantedTools,
      });
      const method = "agent/session.create";
      const result = await r.call(method, params, options.timeoutMs);
      if (typeof result.app_session_uuid !== "string") throw r.malformed(method, "has no app_session_uuid string");
      return session(result.app_session_uuid, result);
    },
    list: (options = {}) => {
      const { limit } = options;
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= LIST_LIMIT.min && limit <= LIST_LIMIT.max)) {
        return Promise.reject(r.invalid("agent/session.list", `limit must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}, got ${limit}`));
      }
      return r.call("agent/session.list", given({ include_expired: options.includeExpired, limit }), options.timeoutMs) as Promise<never>;
    },
    session: (uuid) => session(uuid, { app_session_uuid: uuid }),
  };
}
