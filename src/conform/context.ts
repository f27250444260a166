/** What every check shares: the launch, the probe session's findings, and sessions it can open. */
import {
  MockHost,
  Session,
  type FileTransportRead,
  type LaunchSpec,
  type MockHostOptions,
  type SessionOptions,
  type Stray,
} from "../host/index.js";
import { PROTOCOL_V2, Timeouts, type Manifest, type ToolDefinition } from "../protocol/index.js";
import type { RunProgress } from "./progress.js";
import type { ToolSample } from "./tool-sample.js";

const TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** A session is settled once its stdout has been quiet this long. */
const SETTLE_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A credential value for the conformance checks: variants 0 and 1 differ in every character
 * position (so even a masked preview, first and last four characters, tells them apart), and the
 * same name and variant always give the same value.
 */
export function credentialValue(name: string, variant: 0 | 1): string {
  let seed = 0;
  for (const ch of name) seed = (seed * 31 + ch.charCodeAt(0)) % TOKEN_ALPHABET.length;
  const half = TOKEN_ALPHABET.length / 2;
  return Array.from(
    { length: 32 },
    (_, i) => TOKEN_ALPHABET[(seed + i * 7 + variant * half) % TOKEN_ALPHABET.length],
  ).join("");
}

export interface ProbeResult {
  /** The describe answer (possibly late), or why there was none. */
  describe: {
    frame?: Record<string, unknown>;
    ms?: number;
    timedOut: boolean;
    error?: string;
    file?: FileTransportRead;
  };
  manifest?: Manifest;
  alive: { ok: boolean; message?: string };
  session: Session;
}

/** How long the checks wait for each kind of answer: the Agent's timeouts, times the run's slowdown. */
export interface Waits {
  describeMs: number;
  healthMs: number;
  sigtermGraceMs: number;
  /** A reply to a request the plugin must answer at once (an error, an unknown tool). */
  answerMs: number;
  /** A 15 MiB frame, read and answered. */
  largeFrameMs: number;
}

export function waitsFor(slowdown = 1): Waits {
  const s = Math.max(1, slowdown);
  return {
    describeMs: Timeouts.describeMs * s,
    healthMs: Timeouts.healthMs * s,
    sigtermGraceMs: Timeouts.sigtermGraceMs * s,
    answerMs: 10_000 * s,
    largeFrameMs: 15_000 * s,
  };
}

export interface Shared {
  launch: LaunchSpec;
  waits: Waits;
  env: NodeJS.ProcessEnv | undefined;
  mockHost: MockHostOptions;
  probe: ProbeResult;
  /** Every session opened, with the check that opened it (for the stdout check). */
  sessions: { check: string; session: Session }[];
  /** The tools the per-tool checks exercise (set once the probe has the manifest). */
  sample: ToolSample;
  progress?: RunProgress;
}

/** The manifest's tools that have a name (the ones a host could call). */
export function namedTools(manifest: Manifest | undefined): ToolDefinition[] {
  const tools = manifest?.tools;
  return Array.isArray(tools) ? tools.filter((t) => t && typeof t === "object" && typeof t.name === "string") : [];
}

export class CheckContext {
  /** The check read the tool list, so its verdict rests on the sample (the runner says so when it is one). */
  usedTools = false;

  constructor(
    readonly shared: Shared,
    readonly checkId: string,
  ) {}

  get probe(): ProbeResult {
    return this.shared.probe;
  }

  get waits(): Waits {
    return this.shared.waits;
  }

  get manifest(): Manifest | undefined {
    return this.shared.probe.manifest;
  }

  /** The tools to exercise: every named tool, or past the run's cap a seeded sample of them. */
  get tools(): ToolDefinition[] {
    this.usedTools = true;
    return this.shared.sample.tools;
  }

  /** The tools to exercise, one by one, each reported as this check's progress. */
  *eachTool(): Generator<ToolDefinition> {
    const tools = this.tools;
    for (const [i, tool] of tools.entries()) {
      this.shared.progress?.atTool(this.checkId, i + 1, tools.length);
      yield tool;
    }
  }

  /** The names of the credentials the manifest declares. */
  get credentialNames(): string[] {
    const list = this.manifest?.credentials;
    return Array.isArray(list) ? list.map((c) => c?.name).filter((n): n is string => typeof n === "string") : [];
  }

  /** A value for every credential the manifest declares (variant 0 unless told). */
  credentials(variant: 0 | 1 = 0): Record<string, string> {
    return Object.fromEntries(this.credentialNames.map((n) => [n, credentialValue(n, variant)]));
  }

  toolTimeoutMs(tool: ToolDefinition): number {
    return (typeof tool.timeout === "number" && tool.timeout > 0 ? tool.timeout : Timeouts.invokeDefaultS) * 1000;
  }

  /** A fresh plugin process for this check (closed by the runner when the check ends). */
  session(options: Partial<SessionOptions> = {}): Session {
    const mockHost = new MockHost(this.shared.mockHost);
    const session = new Session(this.shared.launch, {
      mockHost,
      ...(this.manifest && {
        hostCapabilities: Array.isArray(this.manifest.host_capabilities) ? this.manifest.host_capabilities : [],
      }),
      ...options,
      env: { ...this.shared.env, ...options.env },
    });
    this.shared.sessions.push({ check: this.checkId, session });
    session.child.once("exit", () => void mockHost.close());
    return session;
  }

  /**
   * A fresh session whose plugin is up: it has answered describe, as the Agent waits for before
   * anything it times (a slow start is the describe check's business, not every check's).
   */
  async readySession(options: Partial<SessionOptions> = {}): Promise<Session> {
    const session = this.session(options);
    await session.describe(this.waits.describeMs).catch(() => undefined);
    // Let whatever the plugin writes right after describe arrive first, so it is not blamed on the check's own requests.
    for (
      const started = session.now();
      session.now() - session.lastStdoutAt < SETTLE_MS && session.now() - started < 6 * SETTLE_MS;
    )
      await sleep(SETTLE_MS / 2);
    return session;
  }

  /** A fresh session that has negotiated `initialize` as the host does before any invoke (a v1 plugin stays on v1). */
  async invokingSession(options: Partial<SessionOptions> = {}): Promise<Session> {
    const session = this.session(options);
    await session.initialize(PROTOCOL_V2, this.waits.describeMs).catch(() => undefined);
    return session;
  }
}

/** Answers to nothing the host waited for that arrived at or after `t` (session time). */
export function straysSince(session: Session, t: number): Stray[] {
  return session.strays.filter((s) => s.t >= t);
}

export function describeStray(s: Stray): string {
  const what = {
    "null-id": "with id null",
    "no-id": "without an id member",
    "unknown-id": `with id ${JSON.stringify(s.frame.id)}, which the host never sent`,
  }[s.kind];
  return `${what}: ${show(s.frame, 200)}`;
}

/** The frames of a session for a failure message. */
export function frames(session: Session, count = 8): string {
  const text = session.frames(count, (r) => r.dir !== "stderr");
  const err = session.stderr.trim().split("\n").slice(-3).join("\n    ");
  return `${text ? `\n  frames:\n${text}` : ""}${err ? `\n  stderr (last lines):\n    ${err.slice(0, 600)}` : ""}`;
}

export const show = (value: unknown, max = 300): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

export function errorCode(frame: Record<string, unknown>): number | undefined {
  const e = frame.error as { code?: unknown } | undefined;
  return typeof e?.code === "number" ? e.code : undefined;
}
