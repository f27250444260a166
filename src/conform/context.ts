/** What every check shares: the launch, the probe session's findings, and sessions it can open. */
import { MockHost, Session, type LaunchSpec, type MockHostOptions, type SessionOptions } from "../host/index.js";
import { Timeouts, type Manifest, type ToolDefinition } from "../protocol/index.js";

export interface ProbeResult {
  /** The describe answer (possibly late), or why there was none. */
  describe: { frame?: Record<string, unknown>; ms?: number; timedOut: boolean; error?: string };
  manifest?: Manifest;
  alive: { ok: boolean; message?: string };
  session: Session;
}

export interface Shared {
  launch: LaunchSpec;
  env: NodeJS.ProcessEnv | undefined;
  mockHost: MockHostOptions;
  probe: ProbeResult;
  /** Every session opened, with the check that opened it (for the stdout check). */
  sessions: { check: string; session: Session }[];
}

export class CheckContext {
  constructor(readonly shared: Shared, readonly checkId: string) {}

  get probe(): ProbeResult {
    return this.shared.probe;
  }

  get manifest(): Manifest | undefined {
    return this.shared.probe.manifest;
  }

  /** The manifest's tools that have a name (the ones a host could call). */
  get tools(): ToolDefinition[] {
    const tools = this.manifest?.tools;
    return Array.isArray(tools) ? tools.filter((t) => t && typeof t === "object" && typeof t.name === "string") : [];
  }

  /** A value for every credential the manifest declares. */
  credentials(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const c of this.manifest?.credentials ?? []) if (c && typeof c.name === "string") out[c.name] = `conformance-${c.name.toLowerCase()}-value`;
    return out;
  }

  toolTimeoutMs(tool: ToolDefinition): number {
    return (typeof tool.timeout === "number" && tool.timeout > 0 ? tool.timeout : Timeouts.invokeDefaultS) * 1000;
  }

  /** A fresh plugin process for this check (closed by the runner when the check ends). */
  session(options: Partial<SessionOptions> = {}): Session {
    const mockHost = new MockHost(this.shared.mockHost);
    const session = new Session(this.shared.launch, {
      mockHost,
      ...(this.manifest && { hostCapabilities: Array.isArray(this.manifest.host_capabilities) ? this.manifest.host_capabilities : [] }),
      ...options,
      env: { ...this.shared.env, ...options.env },
    });
    this.shared.sessions.push({ check: this.checkId, session });
    session.child.once("exit", () => void mockHost.close());
    return session;
  }
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
