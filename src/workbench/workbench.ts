/**
 * The workbench of `executa dev` and `executa inspect`: one plugin session at a time
 * (restartable), initialize + describe on start, reverse requests shown as they happen, an
 * optional frame trace, fixture recording, and hooks for a page that shows all of it.
 */
import {
  HarnessRecorder,
  MockHost,
  replayable,
  prepareLaunch,
  progressLine,
  Session,
  type FrameRecord,
  type LaunchSpec,
  type MockHostOptions,
  type PreparedLaunch,
  type ProgressEvent,
  type Response,
} from "../host/index.js";
import { PROTOCOL_V1, PROTOCOL_V2, Timeouts, type Manifest, type ToolDefinition } from "../protocol/index.js";

export interface WorkbenchOptions {
  mockHost?: MockHostOptions;
  /** Append each exchange to this JSONL file, in the harness recording format (`executa test --fixtures` replays it). */
  record?: string;
  credentials?: Record<string, string>;
  /** Where events go: reverse requests, trace, restarts (stderr by default). */
  log?: (line: string) => void;
  /** Run before each restart (`--watch` regenerates the manifest here); throws to stop the restart. */
  beforeRestart?: () => Promise<void>;
  /**
   * The host to simulate: "2.0" sends initialize offering 2.0 first; "1.1" offers 1.1 (a v1 host:
   * no reverse requests); "none" sends no initialize at all, as Anna's local-dev runtime does
   * (reverse requests are served). Default "2.0".
   */
  hostProtocol?: HostProtocol;
  /** Echo stderr, non-frame stdout and reverse requests to `log` (default true; the web workbench shows them itself). */
  echo?: boolean;
  /** Characters of each frame kept in the transcript (default the session's 2000). */
  recordChars?: number;
  /** Every frame and stderr chunk of every session, as it happens (`session` counts starts from 1). */
  onRecord?: (record: FrameRecord, session: number) => void;
  /** Each request the workbench sent and its answer. */
  onExchange?: (exchange: WorkbenchExchange) => void;
  /** A session started (before initialize) or its plugin exited. */
  onSession?: (event: SessionEvent) => void;
  /** Each executa/progress notification as it arrives (`session` counts starts from 1). */
  onProgress?: (event: ProgressEvent, session: number) => void;
}

/** No initialize at all: Anna's local-dev runtime. */
export const NO_INITIALIZE = "none";
export type HostProtocol = typeof PROTOCOL_V2 | typeof PROTOCOL_V1 | typeof NO_INITIALIZE;
export const HOST_PROTOCOLS: readonly HostProtocol[] = [PROTOCOL_V2, PROTOCOL_V1, NO_INITIALIZE];

export type SessionEvent =
  | { kind: "started"; session: number; plugin: Session }
  | { kind: "exited"; session: number; code: number | null; signal: NodeJS.Signals | null; stderrTail: string };

/** One request of the workbench's own and the plugin's answer. */
export interface WorkbenchExchange {
  session: number;
  method: string;
  params?: Record<string, unknown>;
  answer: { result: unknown } | { error: unknown };
  /** performance.now() when sent and when answered. */
  sentAt: number;
  answeredAt: number;
  invokeId?: string;
  /** The invoke carried credentials (a replay without them may answer differently). */
  usedCredentials?: boolean;
  /** The answer came by file transport, this many bytes. */
  fileBytes?: number;
  /** The protocol the simulated host spoke in that session. */
  hostProtocol: HostProtocol;
}

export interface InvokeCall {
  invokeId?: string;
  /** On top of the workbench's own (`--credential`). */
  credentials?: Record<string, string>;
}

const ARROWS: Record<FrameRecord["dir"], string> = {
  send: "->",
  recv: "<-",
  noise: "<- (not a frame)",
  stderr: "stderr |",
};

export class Workbench {
  session: Session | undefined;
  manifest: Manifest | undefined;
  trace = false;
  /** Takes effect at the next start. */
  hostProtocol: HostProtocol;
  /** Sessions started so far. */
  sessions = 0;
  readonly mockHost: MockHost;
  private prepared: PreparedLaunch | undefined;
  private closed = false;
  private readonly log: (line: string) => void;
  private readonly recorder: HarnessRecorder | undefined;

  constructor(
    private readonly launch: LaunchSpec,
    private readonly options: WorkbenchOptions = {},
  ) {
    // A recording is replayed later: the mock host answers the same requests the same way then.
    this.mockHost = new MockHost(options.record ? replayable(options.mockHost) : options.mockHost);
    if (options.record)
      this.recorder = new HarnessRecorder(
        options.record,
        { plugin: [launch.command, ...launch.args].join(" ") },
        performance.now(),
        this.mockHost,
      );
    this.log = options.log ?? ((line) => process.stderr.write(line + "\n"));
    this.hostProtocol = options.hostProtocol ?? PROTOCOL_V2;
  }

  get tools(): ToolDefinition[] {
    return Array.isArray(this.manifest?.tools) ? this.manifest!.tools : [];
  }

  tool(name: string): ToolDefinition | undefined {
    return this.tools.find((t) => t.name === name);
  }

  /** Starts the plugin: initialize (offering the host's protocol; none for "none"), then describe. */
  async start(): Promise<void> {
    if (!this.prepared) {
      this.prepared = await prepareLaunch(this.launch);
      if (this.prepared.note) this.log(this.prepared.note);
    }
    if (this.closed) {
      // Closed while the TypeScript bundle or the Go build was made: start nothing.
      this.prepared.cleanup();
      throw new Error("the workbench was closed");
    }
    const n = ++this.sessions;
    const echo = this.options.echo !== false;
    const session = new Session(this.prepared.launch, {
      mockHost: this.mockHost,
      ...(this.options.recordChars !== undefined && { recordChars: this.options.recordChars }),
      onRecord: (r) => {
        this.options.onRecord?.(r, n);
        if (this.trace) this.log(`${ARROWS[r.dir]} ${r.text.trimEnd().slice(0, 2000)}`);
        else if (!echo) return;
        else if (r.dir === "stderr") this.log(`stderr | ${r.text.trimEnd()}`);
        else if (r.dir === "noise") this.log(`stdout (not a frame) | ${r.text.trimEnd().slice(0, 300)}`);
      },
      onProgress: (event) => {
        this.recorder?.progress(event);
        this.options.onProgress?.(event, n);
        if (echo) this.log(`${progressLine(event)}${event.invokeId ? ` (invoke ${event.invokeId})` : ""}`);
      },
      onReverse: (method, params, answer) => {
        if (!echo) return;
        const context = (params as { context?: { invoke_id?: string } } | undefined)?.context;
        const a = answer as { error?: { code: number; message: string } };
        this.log(
          `<= ${method} (invoke ${context?.invoke_id ?? "?"}) ${a.error ? `answered error ${a.error.code}: ${a.error.message}` : "answered by the mock host"}`,
        );
      },
    });
    this.session = session;
    this.options.onSession?.({ kind: "started", session: n, plugin: session });
    session.child.on("exit", (code, signal) => {
      this.options.onSession?.({ kind: "exited", session: n, code, signal, stderrTail: session.stderr.slice(-2000) });
      if (this.session === session)
        this.log(`plugin exited (${signal ?? `code ${code}`}); it restarts on the next command`);
    });
    if (this.hostProtocol !== NO_INITIALIZE) {
      const init = await session.initialize(this.hostProtocol).catch((e: Error) => e);
      if (!(init instanceof Error)) this.recordExchange("initialize", { protocolVersion: this.hostProtocol }, init);
    }
    const r = await session.describe(Timeouts.describeMs * 6);
    this.recordExchange("describe", undefined, r);
    const result = r.frame.result;
    this.manifest = result && typeof result === "object" && !Array.isArray(result) ? (result as Manifest) : undefined;
  }

  async ensure(): Promise<Session> {
    if (!this.session?.alive) await this.start();
    return this.session!;
  }

  async restart(): Promise<void> {
    await this.stop();
    if (this.options.beforeRestart) await this.options.beforeRestart();
    // Bundle TypeScript and build Go again, so the restart runs the current source.
    this.prepared?.cleanup();
    this.prepared = undefined;
    await this.start();
  }

  async stop(): Promise<void> {
    const s = this.session;
    this.session = undefined;
    if (s) await s.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
    this.prepared?.cleanup();
    await this.mockHost.close();
  }

  async describe(): Promise<Response> {
    const session = await this.ensure();
    const r = await session.describe(Timeouts.describeMs * 6);
    this.recordExchange("describe", undefined, r);
    return r;
  }

  async health(): Promise<Response> {
    const r = await (await this.ensure()).health(Timeouts.healthMs * 3);
    this.recordExchange("health", undefined, r);
    return r;
  }

  async invoke(tool: string, args: Record<string, unknown>, call: InvokeCall = {}): Promise<Response> {
    const session = await this.ensure();
    const def = this.tool(tool);
    const timeoutMs = (typeof def?.timeout === "number" ? def.timeout : Timeouts.invokeDefaultS) * 1000;
    const credentials = { ...this.options.credentials, ...call.credentials };
    const used = Object.keys(credentials).length > 0;
    const r = await session.invoke(tool, args, {
      timeoutMs,
      ...(used && { credentials }),
      ...(call.invokeId && { invokeId: call.invokeId }),
    });
    this.recordExchange("invoke", { tool, arguments: args }, r, {
      ...(call.invokeId && { invokeId: call.invokeId }),
      ...(used && { usedCredentials: true }),
    });
    return r;
  }

  private recordExchange(
    method: string,
    params: Record<string, unknown> | undefined,
    r: Response,
    extra: Pick<WorkbenchExchange, "invokeId" | "usedCredentials"> = {},
  ): void {
    const answer = "error" in r.frame ? { error: r.frame.error } : { result: r.frame.result };
    const answeredAt = performance.now();
    const sentAt = answeredAt - r.ms;
    this.recorder?.exchange(method, params, answer, sentAt, answeredAt, r.reverse);
    this.options.onExchange?.({
      session: this.sessions,
      method,
      ...(params && { params }),
      answer,
      sentAt,
      answeredAt,
      hostProtocol: this.hostProtocol,
      ...extra,
      ...(r.file?.bytes !== undefined && { fileBytes: r.file.bytes }),
    });
  }
}
