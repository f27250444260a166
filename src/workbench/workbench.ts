/**
 * The dev workbench: one plugin session at a time (restartable), initialize + describe on start,
 * reverse requests shown as they happen, an optional frame trace, and fixture recording.
 */
import {
  HarnessRecorder, MockHost, prepareLaunch, Session, type FrameRecord, type LaunchSpec, type MockHostOptions, type PreparedLaunch, type Response,
} from "../host/index.js";
import { PROTOCOL_V2, Timeouts, type Manifest, type ToolDefinition } from "../protocol/index.js";

export interface WorkbenchOptions {
  mockHost?: MockHostOptions;
  /** Append each exchange to this JSONL file, in the harness recording format (`executa test --fixtures` replays it). */
  record?: string;
  credentials?: Record<string, string>;
  /** Where events go: reverse requests, trace, restarts (stderr by default). */
  log?: (line: string) => void;
  /** Run before each restart (`--watch` regenerates the manifest here); throws to stop the restart. */
  beforeRestart?: () => Promise<void>;
}

const ARROWS: Record<FrameRecord["dir"], string> = { send: "->", recv: "<-", noise: "<- (not a frame)", stderr: "stderr |" };

export class Workbench {
  session: Session | undefined;
  manifest: Manifest | undefined;
  trace = false;
  private prepared: PreparedLaunch | undefined;
  private readonly mockHost: MockHost;
  private readonly log: (line: string) => void;
  private readonly recorder: HarnessRecorder | undefined;

  constructor(private readonly launch: LaunchSpec, private readonly options: WorkbenchOptions = {}) {
    this.mockHost = new MockHost(options.mockHost);
    if (options.record) this.recorder = new HarnessRecorder(options.record, { plugin: [launch.command, ...launch.args].join(" ") });
    this.log = options.log ?? ((line) => process.stderr.write(line + "\n"));
  }

  get tools(): ToolDefinition[] {
    return Array.isArray(this.manifest?.tools) ? this.manifest!.tools : [];
  }

  tool(name: string): ToolDefinition | undefined {
    return this.tools.find((t) => t.name === name);
  }

  /** Starts the plugin: initialize (offering 2.0), then describe. */
  async start(): Promise<void> {
    this.prepared ??= await prepareLaunch(this.launch);
    const session = new Session(this.prepared.launch, {
      mockHost: this.mockHost,
      onRecord: (r) => {
        if (this.trace) this.log(`${ARROWS[r.dir]} ${r.text.trimEnd().slice(0, 2000)}`);
        else if (r.dir === "stderr") this.log(`stderr | ${r.text.trimEnd()}`);
        else if (r.dir === "noise") this.log(`stdout (not a frame) | ${r.text.trimEnd().slice(0, 300)}`);
      },
      onReverse: (method, params, answer) => {
        const context = (params as { context?: { invoke_id?: string } } | undefined)?.context;
        const a = answer as { error?: { code: number; message: string } };
        this.log(`<= ${method} (invoke ${context?.invoke_id ?? "?"}) ${a.error ? `answered error ${a.error.code}: ${a.error.message}` : "answered by the mock host"}`);
      },
    });
    this.session = session;
    session.child.on("exit", (code, signal) => {
      if (this.session === session) this.log(`plugin exited (${signal ?? `code ${code}`}); it restarts on the next command`);
    });
    const init = await session.initialize(PROTOCOL_V2).catch((e: Error) => e);
    if (!(init instanceof Error)) this.recordExchange("initialize", { protocolVersion: PROTOCOL_V2 }, init);
    const r = await session.describe(Timeouts.describeMs * 6);
    this.recordExchange("describe", undefined, r);
    const result = r.frame.result;
    this.manifest = result && typeof result === "object" && !Array.isArray(result) ? (result as Manifest) : undefined;
  }

  async ensure(): Promise<Session> {
    if (!this.session || !this.session.alive) await this.start();
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

  async invoke(tool: string, args: Record<string, unknown>): Promise<Response> {
    const session = await this.ensure();
    const def = this.tool(tool);
    const timeoutMs = ((typeof def?.timeout === "number" ? def.timeout : Timeouts.invokeDefaultS) * 1000);
    const credentials = this.options.credentials ?? {};
    const r = await session.invoke(tool, args, { timeoutMs, ...(Object.keys(credentials).length && { credentials }) });
    this.recordExchange("invoke", { tool, arguments: args }, r);
    return r;
  }

  private recordExchange(method: string, params: Record<string, unknown> | undefined, r: Response): void {
    this.recorder?.exchange(method, params, "error" in r.frame ? { error: r.frame.error } : { result: r.frame.result }, performance.now() - r.ms);
  }
}
