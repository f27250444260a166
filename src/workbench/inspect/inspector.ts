/**
 * What one `executa inspect` runs: the plugin behind the mock host (a Workbench), the trace, the
 * sampling requests waiting for a person, the credentials in memory, and the state the page
 * shows, pushed to every open page as it changes. The HTTP routes call its methods.
 */
import { randomBytes } from "node:crypto";
import { HOST_CAPABILITIES, PROTOCOL_V2, RpcError, argumentProblems } from "../../protocol/index.js";
import {
  DEFAULT_CANNED_TEXT,
  type DetectedLaunch,
  type MockHostOptions,
  type ProgressEvent,
  type Response,
  type SamplingMode,
  type Session,
} from "../../host/index.js";
import { NO_INITIALIZE, Workbench, type HostProtocol, type WorkbenchExchange } from "../workbench.js";
import { boundDepth, MAX_SHOWN_DEPTH } from "./bounded-depth.js";
import { Credentials } from "./credentials.js";
import { HttpError } from "./http.js";
import { ManualQueue } from "./manual.js";
import { EventStream } from "./stream.js";
import { TraceStore } from "./trace.js";
import type {
  HostState,
  InspectState,
  InvokeAnswer,
  PluginState,
  ProgressNote,
  SamplingKind,
  WatchState,
} from "./wire.js";

export interface InspectorOptions {
  launch: DetectedLaunch;
  /** The mock host as the command line set it up (`--mock`, `--sampling`, `--storage`). */
  mockHost: MockHostOptions;
  /** Where the command line's rules came from, for the page. */
  rulesSource?: string;
  credentials?: Record<string, string>;
  /** `--watch`: regenerate the manifest before each restart. */
  beforeRestart?: () => Promise<void>;
  /** Lines for the terminal that runs the server. */
  log?: (line: string) => void;
}

/** Exchanges kept for the export (the oldest go first). */
const MAX_EXCHANGES = 10_000;
/** Characters of each frame kept in the trace (the session's default of 2000 cuts most results). */
const RECORD_CHARS = 64 * 1024;

export class Inspector {
  readonly stream = new EventStream();
  readonly credentials: Credentials;
  readonly trace: TraceStore;
  readonly manual: ManualQueue;
  readonly workbench: Workbench;
  readonly exchanges: WorkbenchExchange[] = [];
  /** Invokes with a reverse request answered by anything but the default mock reply, with how (for the export). */
  readonly unusualAnswers = new Map<string, string>();
  readonly started = performance.now();
  private plugin: PluginState;
  private watchState: WatchState = { state: "off" };
  private samplingKind: SamplingKind;
  private cannedText: string;
  private rulesInfo: HostState["rules"];
  private readonly log: (line: string) => void;
  private closing = false;

  constructor(readonly options: InspectorOptions) {
    this.log = options.log ?? (() => undefined);
    this.credentials = new Credentials(options.credentials);
    this.trace = new TraceStore(this.credentials, (entry) => this.stream.send("trace", [entry]), this.started);
    this.manual = new ManualQueue(
      (pending) => this.stream.send("pending", pending),
      (v) => this.credentials.redactValue(v),
      this.started,
    );
    const sampling = options.mockHost.sampling ?? { kind: "canned", text: DEFAULT_CANNED_TEXT };
    this.samplingKind = options.mockHost.rules ? "rules" : sampling.kind === "echo" ? "echo" : "canned";
    this.cannedText = sampling.kind === "canned" ? sampling.text : DEFAULT_CANNED_TEXT;
    this.rulesInfo = options.mockHost.rules && {
      source: options.rulesSource ?? "the command line",
      count: options.mockHost.rules.rules.length,
    };
    const { launch } = options;
    this.plugin = {
      status: "starting",
      session: 0,
      launch: { command: launch.command, args: launch.args, source: launch.source },
    };
    this.workbench = new Workbench(launch, {
      mockHost: options.mockHost,
      echo: false,
      recordChars: RECORD_CHARS,
      log: (line) => this.log(line),
      ...(options.beforeRestart && { beforeRestart: options.beforeRestart }),
      onRecord: (record, session) => this.trace.record(record, session),
      onProgress: (event, session) => this.stream.send("progress", this.progressNote(event, session)),
      onExchange: (x) => {
        this.exchanges.push(x);
        if (this.exchanges.length > MAX_EXCHANGES) this.exchanges.shift();
      },
      onSession: (event) => {
        if (event.kind === "started") {
          this.trace.event(
            event.session,
            `session ${event.session} started: ${[launch.command, ...launch.args].join(" ").slice(0, 300)}`,
          );
          return;
        }
        const how = event.signal ? `killed by ${event.signal}` : `exit code ${event.code}`;
        this.trace.event(event.session, `the plugin exited (${how})`);
        this.manual.drop(event.session, `the plugin exited (${how}) before the answer was given`);
        if (event.session === this.workbench.sessions && this.plugin.status !== "starting") {
          this.setPlugin({
            status: "exited",
            message: `the plugin exited (${how}); it starts again on the next request`,
            stderrTail: this.credentials.redact(event.stderrTail),
          });
        }
      },
    });
    this.workbench.mockHost.observe((event, record) => {
      if (event !== "answered") return;
      const session = this.workbench.sessions;
      this.trace.reverseAnswered(record, session);
      const invokeId = record.routedTo ?? record.invokeId;
      if (!invokeId) return;
      const how =
        record.answeredBy === "manual"
          ? "answered by hand"
          : record.answeredBy === "host"
            ? `refused by the host (${record.error?.message.slice(0, 80) ?? "error"})`
            : record.answeredBy === "rule"
              ? undefined
              : this.samplingKind === "canned" && this.cannedText === DEFAULT_CANNED_TEXT
                ? undefined
                : `the mock host answered ${record.method} in ${this.samplingKind} mode`;
      if (how) this.unusualAnswers.set(invokeId, how);
    });
    this.applySampling();
  }

  /** Starts the plugin; a failure is shown in the page (and the author can fix it and restart). */
  async start(): Promise<void> {
    await this.run(() => this.workbench.start());
  }

  private async run(step: () => Promise<void>): Promise<void> {
    this.setPlugin({ status: "starting", message: undefined });
    try {
      await step();
    } catch (error) {
      if (this.closing) return;
      const tail = this.workbench.session?.stderr.trim().split("\n").slice(-12).join("\n") ?? "";
      this.setPlugin({
        status: "failed",
        message: this.credentials.redact((error as Error).message),
        stderrTail: this.credentials.redact(tail),
        session: this.workbench.sessions,
      });
      this.log(`the plugin did not start: ${(error as Error).message}`);
      return;
    }
    this.setPlugin({ status: "ready", message: undefined, stderrTail: undefined, session: this.workbench.sessions });
    await this.health().catch(() => undefined);
  }

  private setPlugin(change: Partial<PluginState>): void {
    const wb = this.workbench;
    this.plugin = {
      ...this.plugin,
      ...change,
      session: change.session ?? this.plugin.session,
      ...(wb.manifest && { manifest: this.credentials.redactValue(boundDepth(wb.manifest, MAX_SHOWN_DEPTH)) }),
      protocolVersion:
        wb.hostProtocol === NO_INITIALIZE
          ? "2.0 (assumed: the host sends no initialize, as Anna's local-dev runtime)"
          : wb.session?.protocolVersion,
    };
    this.stream.send("plugin", this.plugin);
  }

  host(): HostState {
    const mock = this.workbench.mockHost;
    return {
      protocol: this.workbench.hostProtocol,
      refused: mock.refusedCapabilities,
      sampling: { kind: this.samplingKind, text: this.cannedText },
      rules: this.rulesInfo,
    };
  }

  state(): InspectState {
    return {
      rev: this.stream.rev,
      plugin: this.plugin,
      host: this.host(),
      watch: this.watchState,
      credentials: this.credentials.names,
      pending: this.manual.pending,
      trace: [...this.trace.list],
      traceDropped: this.trace.dropped,
      capabilities: Object.keys(HOST_CAPABILITIES),
    };
  }

  set watch(state: WatchState) {
    this.watchState = state;
    this.stream.send("watch", state);
  }

  get watch(): WatchState {
    return this.watchState;
  }

  private progressNote(event: ProgressEvent, session: number): ProgressNote {
    return this.credentials.redactValue({
      session,
      type: event.type,
      data: event.data,
      t: Math.round(performance.now() - this.started),
      ...(event.invokeId !== undefined && { invokeId: event.invokeId }),
      ...(event.tool !== undefined && { tool: event.tool }),
      ...(event.problem && { problem: event.problem }),
    });
  }

  /** `invokeId`: the page's own id (so it can show progress while the invoke runs); one is made otherwise. */
  async invoke(tool: string, args: Record<string, unknown>, pageInvokeId?: string): Promise<InvokeAnswer> {
    await this.ready();
    const def = this.workbench.tool(tool);
    const problems = def ? argumentProblems(def, args) : [];
    const invokeId = pageInvokeId ?? `inv-${randomBytes(8).toString("hex")}`;
    const credentials = this.credentials.forInvoke();
    let r: Response;
    try {
      r = await this.workbench.invoke(tool, args, { invokeId, credentials });
    } catch (error) {
      throw new HttpError(
        502,
        this.credentials.redact((error as Error).message),
        "see the plugin's stderr in the trace",
      );
    } finally {
      this.refreshAfterRequest();
    }
    if (r.file) this.trace.fileRead(this.workbench.sessions, r.frame.id, r.file.bytes);
    const answer = "error" in r.frame ? { error: r.frame.error } : { result: r.frame.result };
    return {
      invokeId,
      answer: this.credentials.redactValue(answer),
      ms: r.ms,
      ...(r.file && {
        file: {
          ...(r.file.bytes !== undefined && { bytes: r.file.bytes }),
          ...(r.file.error && { error: r.file.error }),
        },
      }),
      problems,
      ...(r.progress && { progress: r.progress.map((e) => this.progressNote(e, this.workbench.sessions)) }),
      ...(r.tooLarge && { tooLarge: { bytes: r.tooLarge.bytes, maxBytes: r.tooLarge.maxBytes } }),
    };
  }

  async health(): Promise<unknown> {
    await this.ready();
    try {
      const r = await this.workbench.health();
      const health = this.credentials.redactValue("error" in r.frame ? { error: r.frame.error } : r.frame.result);
      this.plugin = { ...this.plugin, health };
      this.stream.send("plugin", this.plugin);
      return health;
    } finally {
      this.refreshAfterRequest();
    }
  }

  async describe(): Promise<unknown> {
    await this.ready();
    try {
      const r = await this.workbench.describe();
      return this.credentials.redactValue("error" in r.frame ? { error: r.frame.error } : r.frame.result);
    } finally {
      this.refreshAfterRequest();
    }
  }

  async restart(): Promise<void> {
    await this.run(() => this.workbench.restart());
  }

  /** The running session, started again first when the plugin had exited. */
  async liveSession(): Promise<Session> {
    await this.ready();
    return this.workbench.session!;
  }

  /** A plugin that exited starts again here, the way `executa dev` restarts it on the next command. */
  private async ready(): Promise<void> {
    if (this.workbench.session?.alive) return;
    await this.run(() => this.workbench.ensure().then(() => undefined));
    if (!this.workbench.session?.alive)
      throw new HttpError(409, this.plugin.message ?? "the plugin is not running", "fix the plugin and press Restart");
  }

  /** After a request the plugin may have died: show it at once. */
  private refreshAfterRequest(): void {
    if (this.workbench.session && !this.workbench.session.alive && this.plugin.status === "ready") {
      this.setPlugin({
        status: "exited",
        message: "the plugin exited; it starts again on the next request",
        stderrTail: this.credentials.redact(this.workbench.session.stderr.slice(-2000)),
      });
    }
  }

  setCredentials(values: Record<string, unknown>): string[] {
    for (const [name, value] of Object.entries(values)) {
      if (typeof value !== "string") throw new HttpError(400, `the value of ${name} must be a string`);
      try {
        this.credentials.set(name, value);
      } catch (error) {
        throw new HttpError(400, (error as Error).message);
      }
    }
    this.stream.send("credentials", this.credentials.names);
    return this.credentials.names;
  }

  setSampling(kind: SamplingKind, text?: string): HostState {
    if (kind === "rules" && !this.workbench.mockHost.ruleSet?.rules.length) {
      throw new HttpError(
        400,
        "there are no mock rules to answer with",
        "paste rules (JSONL) in the Mock host panel, or start with --mock FILE",
      );
    }
    this.samplingKind = kind;
    if (text !== undefined) this.cannedText = text;
    this.applySampling();
    return this.pushHost();
  }

  private applySampling(): void {
    const mode: SamplingMode =
      this.samplingKind === "echo"
        ? { kind: "echo" }
        : this.samplingKind === "manual"
          ? { kind: "manual", answer: (request) => this.manual.ask(request, this.workbench.sessions) }
          : { kind: "canned", text: this.cannedText };
    this.workbench.mockHost.sampling = mode;
  }

  pushHost(): HostState {
    const host = this.host();
    this.stream.send("host", host);
    return host;
  }

  /** The simulated host: its protocol (a change restarts the plugin) and the capabilities its user refuses. */
  async setHost(protocol: HostProtocol | undefined, refused: string[] | undefined): Promise<HostState> {
    const mock = this.workbench.mockHost;
    if (refused) {
      const known = Object.keys(HOST_CAPABILITIES);
      const unknown = refused.filter((c) => !known.includes(c));
      if (unknown.length)
        throw new HttpError(400, `unknown capabilities: ${unknown.join(", ")}`, `known: ${known.join(", ")}`);
      for (const c of mock.refusedCapabilities) if (!refused.includes(c)) mock.refuse(c, false);
      for (const c of refused) mock.refuse(c, true);
    }
    if (protocol && protocol !== this.workbench.hostProtocol) {
      this.workbench.hostProtocol = protocol;
      const how =
        protocol === PROTOCOL_V2
          ? "initialize offering 2.0"
          : protocol === NO_INITIALIZE
            ? "no initialize, as Anna's local-dev runtime; reverse requests are served"
            : `initialize offering ${protocol}, so no reverse requests`;
      this.trace.event(this.workbench.sessions, `the host now speaks protocol ${protocol} (${how}); restarting`);
      this.pushHost();
      await this.restart();
    }
    return this.pushHost();
  }

  setRulesInfo(info: HostState["rules"]): void {
    this.rulesInfo = info;
    if (!info && this.samplingKind === "rules") this.samplingKind = "canned";
    this.applySampling();
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const p of this.manual.pending)
      this.manual.answer(p.seq, { error: { code: RpcError.InternalError, message: "executa inspect is stopping" } });
    this.stream.close();
    await this.workbench.close();
  }
}
