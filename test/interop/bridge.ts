/**
 * Anna's local-dev harness as the anna-app CLI runs it: `python -m anna_app_runtime_local.bridge`,
 * one JSON-RPC envelope per line both ways. We send it requests (`executas.register`,
 * `session.create`, `session.call`); it sends us `host.*` requests (the LLM, agent sessions: what
 * the CLI's LlmBridge answers) that the test answers with a script. Everything else of the
 * platform (the dispatcher's ACL, the in-memory store, the plugin pool) is its own code.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { platformPython } from "../support/platform.js";

/** Answers one `host.*` request of the bridge (its params are the plugin's reverse request, minus context). */
export type HostHandler = (params: Record<string, unknown>) => unknown;

/** What `session.call` answers: the dispatcher's result, or its error (code such as tool_failed, message, details). */
export type CallOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: string; message: string; details: unknown } };

export interface HostCall {
  method: string;
  params: Record<string, unknown>;
}

export class Bridge {
  /** Every `host.*` request the bridge sent us, in order. */
  readonly hostCalls: HostCall[] = [];
  private stderr = "";
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly ready: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly hostHandlers: Record<string, HostHandler>,
  ) {
    let markReady!: () => void;
    this.ready = new Promise((r) => (markReady = r));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (this.stderr = (this.stderr + d).slice(-8 * 1024)));
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
      if (!line.trim()) return;
      const env = JSON.parse(line) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: unknown;
        error?: { code: number; message: string };
      };
      if (env.method === "_ready") return markReady();
      if (env.method !== undefined) return void this.answerHost(env.id!, env.method, env.params ?? {});
      const waiter = this.pending.get(env.id!);
      this.pending.delete(env.id!);
      if (env.error)
        waiter?.reject(new Error(`bridge answered [${env.error.code}] ${env.error.message}\n${this.log()}`));
      else waiter?.resolve(env.result);
    });
    child.on("exit", (code, signal) => {
      for (const { reject } of this.pending.values())
        reject(new Error(`the bridge exited (${signal ?? code})\n${this.log()}`));
      this.pending.clear();
    });
  }

  /** Starts the bridge; the plugins it spawns inherit `env` (on top of this process's environment). */
  static async start(hostHandlers: Record<string, HostHandler>, env: NodeJS.ProcessEnv = {}): Promise<Bridge> {
    const child = spawn(platformPython(), ["-m", "anna_app_runtime_local.bridge"], {
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const bridge = new Bridge(child, hostHandlers);
    await Promise.race([
      bridge.ready,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`the bridge did not say _ready in 30 s\n${bridge.log()}`)), 30_000).unref(),
      ),
    ]);
    return bridge;
  }

  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }

  /** Registers a plugin; `command` omitted is the bridge's own default, `uv run --project <dir> <tool_id>`. */
  async register(toolId: string, projectDir: string, command?: string[]): Promise<void> {
    const r = (await this.request("executas.register", {
      executas: [{ tool_id: toolId, project_dir: projectDir, ...(command && { command }) }],
    })) as { registered: string[] };
    if (!r.registered.includes(toolId)) throw new Error(`the bridge did not register ${toolId}: ${JSON.stringify(r)}`);
  }

  /** Creates an app session (a window) for `manifest`, the app's manifest; returns its session id. */
  async createSession(manifest: Record<string, unknown>): Promise<string> {
    const r = (await this.request("session.create", { user_id: 1, manifest, app_slug: "interop" })) as {
      session_id: string;
    };
    return r.session_id;
  }

  /** One host API call from the app's window, e.g. `call(s, "tools", "invoke", {...})`. */
  async call(sessionId: string, ns: string, method: string, args: Record<string, unknown>): Promise<CallOutcome> {
    return (await this.request("session.call", { session_id: sessionId, ns, method, args })) as CallOutcome;
  }

  /** The bridge's stderr (it carries each plugin's stderr, prefixed `[executa:<tool_id>]`), its last 8 KiB. */
  log(): string {
    return `--- the bridge's stderr (the last 8 KiB)\n${this.stderr || "(nothing)"}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once("exit", r));
    this.child.stdin.end(); // the bridge exits on EOF; its plugins are its children and see theirs
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private async answerHost(id: number, method: string, params: Record<string, unknown>): Promise<void> {
    this.hostCalls.push({ method, params });
    const handler = this.hostHandlers[method];
    let reply: Record<string, unknown>;
    if (!handler) {
      reply = {
        error: {
          code: -32601,
          message: `the interop test scripts no answer for ${method}`,
          data: { errorCode: "not_scripted" },
        },
      };
    } else {
      try {
        reply = { result: await handler(params) };
      } catch (err) {
        reply = { error: { code: -32603, message: (err as Error).message, data: { errorCode: "scripted_error" } } };
      }
    }
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, ...reply }) + "\n");
  }
}
