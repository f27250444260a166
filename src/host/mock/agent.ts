/**
 * `agent/session.*` (long reference §7.2): sessions with the host's lifecycle (an idle window that
 * slides on use and refresh, capped by a hard lifetime), buffered runs whose frames open with
 * `run_meta`, history, list, cancel and delete. The mock host grants no tools, so every run is
 * text-only and says so in `run_meta.warnings`, as the real host does.
 */
import { AgentError } from "../../protocol/index.js";
import { iso, modelText, ruleAnswer, type Call, type HostEnv } from "./call.js";
import { isObject, refuse, type Params } from "./params.js";
import { MOCK_MODEL } from "./sampling.js";
import type { Answer } from "./types.js";
import { remember } from "./bounded.js";

export const AGENT_LIMITS = {
  systemPromptChars: 4000,
  maxFrames: 4096,
  tokenTtlS: 600,
  maxLifetimeS: 24 * 3600,
  defaultTtlS: 600,
  sessionsKept: 1000,
  runsKept: 1000,
} as const;

interface Run {
  cancelled: boolean;
  done: boolean;
  cancel?: () => void;
}

export interface AgentSession {
  uuid: string;
  submode: "auto" | "fixed";
  fixedClientId: string | null;
  label: string | null;
  systemPrompt: string | null;
  grantedTools: string[];
  inheritHostTools: boolean;
  threadId: string;
  createdAt: number;
  lastActiveAt: number;
  idleTtlS: number;
  expiresAt: number;
  maxLifetimeAt: number;
  deleted: boolean;
  history: { role: string; content: string }[];
  runs: Map<string, Run>;
}

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;

export class AgentService {
  readonly sessions = new Map<string, AgentSession>();

  constructor(private readonly env: HostEnv) {}

  handle(call: Call): Promise<Answer> | Answer {
    switch (call.method) {
      case "agent/session.create":
        return this.create(call);
      case "agent/session.run":
        return this.run(call);
      case "agent/session.cancel":
        return this.cancel(call);
      case "agent/session.history":
        return this.history(call);
      case "agent/session.list":
        return this.list(call);
      case "agent/session.refresh":
        return this.refresh(call);
      default:
        return this.remove(call);
    }
  }

  private ttl(p: Params): number {
    return p.integer("ttl_seconds", { min: 1, max: AGENT_LIMITS.maxLifetimeS }) ?? AGENT_LIMITS.defaultTtlS;
  }

  private lifecycle(s: AgentSession): Record<string, unknown> {
    const now = this.env.clock();
    return {
      app_session_uuid: s.uuid,
      expires_in: AGENT_LIMITS.tokenTtlS,
      kind: "agent",
      agent_submode: s.submode,
      fixed_client_id: s.fixedClientId,
      expires_at: iso(s.expiresAt),
      max_lifetime_at: iso(s.maxLifetimeAt),
      idle_ttl_seconds: s.idleTtlS,
      session_expires_in: Math.max(0, Math.round((s.expiresAt - now) / 1000)),
    };
  }

  /** The session named by app_session_uuid, alive; SESSION_NOT_FOUND otherwise. */
  private live(p: Params): AgentSession {
    const uuid = p.requiredString("app_session_uuid");
    const s = this.sessions.get(uuid);
    if (!s || s.deleted)
      throw refuse(
        AgentError.SESSION_NOT_FOUND,
        `SESSION_NOT_FOUND: no agent session ${JSON.stringify(uuid)} (create one with agent/session.create; deleted sessions are gone)`,
        { errorCode: "SESSION_NOT_FOUND" },
      );
    if (this.env.clock() > s.expiresAt) {
      throw refuse(
        AgentError.SESSION_NOT_FOUND,
        `APP_SESSION_EXPIRED: agent session ${uuid} expired at ${iso(s.expiresAt)}; create a new one (refresh before the idle window ends to keep one alive)`,
        { errorCode: "APP_SESSION_EXPIRED" },
      );
    }
    return s;
  }

  private touch(s: AgentSession): void {
    const now = this.env.clock();
    s.lastActiveAt = now;
    s.expiresAt = Math.min(now + s.idleTtlS * 1000, s.maxLifetimeAt);
  }

  private create(call: Call): Answer {
    const { p } = call;
    const kind = p.string("kind") ?? "agent";
    if (kind !== "agent") throw p.bad(`kind must be "agent", got ${JSON.stringify(kind)}`);
    const submode = p.oneOf("agent_submode", ["auto", "fixed"] as const, "auto");
    const fixedClientId = p.string("fixed_client_id", { nonEmpty: true }) ?? null;
    if (submode === "fixed" && !fixedClientId) throw p.bad(`agent_submode "fixed" needs fixed_client_id`);
    const label = p.string("label", { max: 200 }) ?? null;
    const systemPrompt = p.string("system_prompt", { max: AGENT_LIMITS.systemPromptChars }) ?? null;
    p.object("quota_caps");
    const idle = this.ttl(p);
    const now = this.env.clock();
    const s: AgentSession = {
      uuid: uuidOf(this.env.nextId("agent-session")),
      submode,
      fixedClientId,
      label,
      systemPrompt,
      grantedTools: [],
      inheritHostTools: false,
      threadId: `thread_${this.env.nextId("thread").slice(0, 16)}`,
      createdAt: now,
      lastActiveAt: now,
      idleTtlS: idle,
      expiresAt: Math.min(now + idle * 1000, now + AGENT_LIMITS.maxLifetimeS * 1000),
      maxLifetimeAt: now + AGENT_LIMITS.maxLifetimeS * 1000,
      deleted: false,
      history: [],
      runs: new Map(),
    };
    const rule = call.rule();
    const answer = rule ? ruleAnswer(rule) : undefined;
    if (answer && "result" in answer && isObject(answer.result)) {
      // A ruled session is a real one: later runs, refreshes and deletes find it.
      const r = answer.result;
      if (typeof r.app_session_uuid === "string") s.uuid = r.app_session_uuid;
      if (Array.isArray(r.granted_tools))
        s.grantedTools = r.granted_tools.filter((t): t is string => typeof t === "string");
      if (typeof r.inherit_host_tools === "boolean") s.inheritHostTools = r.inherit_host_tools;
    }
    if (!answer || "result" in answer) remember(this.sessions, s.uuid, s, AGENT_LIMITS.sessionsKept);
    return (
      answer ?? {
        result: {
          ...this.lifecycle(s),
          granted_tools: s.grantedTools,
          inherit_host_tools: s.inheritHostTools,
          thread_id: s.threadId,
          system_prompt: s.systemPrompt,
        },
      }
    );
  }

  private runMeta(s: AgentSession, runId: string): Record<string, unknown> {
    const warnings =
      s.grantedTools.length === 0 && !s.inheritHostTools
        ? [
            {
              code: "NO_TOOLS_AVAILABLE",
              message:
                "this session was granted no tools: the run is text-only, and any side effect it claims is made up",
            },
          ]
        : [];
    return {
      event: "run_meta",
      run_id: runId,
      app_session_uuid: s.uuid,
      submode: s.submode,
      inherit_host_tools: s.inheritHostTools,
      granted_tools: s.grantedTools,
      warnings,
      model: MOCK_MODEL,
      provider: "executa-mock",
    };
  }

  private async run(call: Call): Promise<Answer> {
    const { p } = call;
    const s = this.live(p);
    const content = p.string("content") ?? "";
    const attachments = p.raw.attachments;
    if (
      attachments !== undefined &&
      attachments !== null &&
      (!Array.isArray(attachments) || !attachments.every(isObject))
    )
      throw p.bad("attachments must be a list of objects");
    if (!content && !(Array.isArray(attachments) && attachments.length))
      throw p.bad("content is required (the user's turn)");
    p.integer("recursion_limit", { min: 1, max: 100 });
    const systemPrompt = p.string("systemPrompt", { max: AGENT_LIMITS.systemPromptChars });
    const runId = p.string("run_id", { nonEmpty: true }) ?? `run_${this.env.nextId("run").slice(0, 16)}`;
    const streamId = `stream_${this.env.nextId("stream").slice(0, 16)}`;
    this.touch(s);
    const meta = this.runMeta(s, runId);

    const rule = call.rule();
    if (rule && !rule.events) return ruleAnswer(rule);
    let frames: Record<string, unknown>[];
    let text: string;
    if (rule?.events) {
      frames = rule.events.map((e) => structuredClone(isObject(e.payload) ? e.payload : e) as Record<string, unknown>);
      if (frames[0]?.event !== "run_meta") frames.unshift(meta);
      text = frames
        .filter((f) => ["token", "delta", "message"].includes(String(f.event)))
        .map((f) => (typeof f.text === "string" ? f.text : ""))
        .join("");
    } else {
      const run: Run = { cancelled: false, done: false };
      remember(s.runs, runId, run, AGENT_LIMITS.runsKept);
      const cancelled = new Promise<"cancelled">((resolve) => (run.cancel = () => resolve("cancelled")));
      const prompt = [systemPrompt ?? s.systemPrompt, content].filter(Boolean).join("\n");
      const said = await Promise.race([modelText(this.env, call, prompt, content), cancelled]);
      run.done = true;
      if (said !== "cancelled" && "answer" in said) return said.answer;
      text = said === "cancelled" ? "" : said.text;
      frames = [
        meta,
        ...tokenFrames(text),
        said === "cancelled" ? { event: "final", cancelled: true } : { event: "final", text },
        { event: "complete" },
      ];
    }
    s.history.push({ role: "user", content }, { role: "assistant", content: text });
    if (frames.length > AGENT_LIMITS.maxFrames)
      frames = [...frames.slice(0, AGENT_LIMITS.maxFrames - 1), { event: "complete", truncated: true }];
    const final = [...frames].reverse().find((f) => f.event === "final") ?? null;
    return { result: { run_id: runId, stream_id: streamId, frames, final } };
  }

  private cancel(call: Call): Answer {
    const s = this.live(call.p);
    const runId = call.p.requiredString("run_id");
    const ruled = call.rule();
    if (ruled) return ruleAnswer(ruled);
    const run = s.runs.get(runId);
    const cancelled = Boolean(run && !run.done && !run.cancelled);
    if (run && cancelled) {
      run.cancelled = true;
      run.cancel?.();
    }
    return { result: { cancelled, run_id: runId } };
  }

  private history(call: Call): Answer {
    const s = this.live(call.p);
    const ruled = call.rule();
    return ruled ? ruleAnswer(ruled) : { result: { messages: s.history.map((m) => ({ ...m })) } };
  }

  private list(call: Call): Answer {
    const includeExpired = call.p.boolean("include_expired") ?? false;
    const limit = call.p.integer("limit", { min: 1, max: 100 }) ?? 50;
    const ruled = call.rule();
    if (ruled) return ruleAnswer(ruled);
    const now = this.env.clock();
    const sessions = [...this.sessions.values()]
      .filter((s) => !s.deleted && (includeExpired || now <= s.expiresAt))
      .slice(0, limit)
      .map((s) => ({
        app_session_uuid: s.uuid,
        kind: "agent",
        submode: s.submode,
        fixed_client_id: s.fixedClientId,
        label: s.label,
        created_at: iso(s.createdAt),
        last_active_at: iso(s.lastActiveAt),
        expires_at: iso(s.expiresAt),
        max_lifetime_at: iso(s.maxLifetimeAt),
        idle_ttl_seconds: s.idleTtlS,
      }));
    return { result: { sessions } };
  }

  private refresh(call: Call): Answer {
    const s = this.live(call.p);
    const ttl = this.ttl(call.p);
    const ruled = call.rule();
    if (ruled) return ruleAnswer(ruled);
    s.idleTtlS = ttl;
    this.touch(s);
    return { result: this.lifecycle(s) };
  }

  private remove(call: Call): Answer {
    const uuid = call.p.requiredString("app_session_uuid");
    const ruled = call.rule();
    if (ruled) return ruleAnswer(ruled);
    const s = this.sessions.get(uuid);
    if (s && !s.deleted) {
      s.deleted = true;
      for (const run of s.runs.values()) if (!run.done) run.cancel?.();
    }
    return { result: { deleted: true } };
  }
}

/** The text as token frames, at most AGENT_LIMITS.maxFrames - 3 of them. */
function tokenFrames(text: string): Record<string, unknown>[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const room = AGENT_LIMITS.maxFrames - 3;
  const per = Math.max(1, Math.ceil(words.length / room));
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < words.length; i += per) out.push({ event: "token", text: words.slice(i, i + per).join("") });
  return out;
}
