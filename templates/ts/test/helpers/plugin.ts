/**
 * A small test host: spawns the plugin, sends frames on its stdin, reads the frames it writes
 * on stdout, and answers its reverse requests.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The real plugin (compiled): serves manifest.json with the three tools. */
export const MAIN = fileURLToPath(new URL("../../src/main.js", import.meta.url));
/** The test plugin: the same runtime with extra test-only tools (test/fixtures/test-plugin.ts). */
export const TEST_PLUGIN = fileURLToPath(new URL("../fixtures/test-plugin.js", import.meta.url));
/** The project's manifest.json. */
export const MANIFEST = fileURLToPath(new URL("../../../manifest.json", import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

interface Waiter {
  match: (frame: Frame) => boolean;
  resolve: (frame: Frame) => void;
}

export interface StartOptions {
  /** The script to run; the test plugin by default. */
  entry?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

export class Plugin {
  /** Every frame the plugin wrote, in order. */
  readonly frames: Frame[] = [];
  /** stdout lines that were not JSON objects (must stay empty). */
  readonly strayLines: string[] = [];
  stderr = "";
  /** Resolves when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly unclaimed: Frame[] = [];
  private waiters: Waiter[] = [];
  private stdoutRest = "";
  private nextId = 1;

  constructor(options: StartOptions = {}) {
    this.child = spawn(process.execPath, [options.entry ?? TEST_PLUGIN], {
      env: { ...process.env, EXECUTA_TEST_PLUGIN: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdin.on("error", () => {}); // the plugin may exit before it reads everything
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => this.onStdout(text));
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Sends a frame: an object as one JSON line; a string or bytes exactly as given. */
  send(frame: unknown): void {
    const data = typeof frame === "string" || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame) + "\n";
    this.child.stdin.write(data);
  }

  /** Sends a request and resolves with its response. */
  request(method: string, params?: unknown, id: string | number | null = this.nextId++): Promise<Frame> {
    this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return this.response(id);
  }

  invoke(tool: string, args?: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Frame> {
    return this.request("invoke", { tool, ...(args !== undefined && { arguments: args }), ...extra });
  }

  /** Answers `initialize` with the given protocol version ("2.0" enables reverse requests). */
  async initialize(protocolVersion = "2.0"): Promise<Frame> {
    return (await this.request("initialize", { protocolVersion, clientInfo: { name: "test-host" } })).result;
  }

  /** The response with this id. */
  response(id: unknown, timeoutMs?: number): Promise<Frame> {
    return this.next((f) => !("method" in f) && f.id === id, timeoutMs);
  }

  /** The next reverse request the plugin sends (of this method, if given). */
  reverseRequest(method?: string, timeoutMs?: number): Promise<Frame> {
    return this.next((f) => typeof f.method === "string" && (method === undefined || f.method === method), timeoutMs);
  }

  reply(id: unknown, result: unknown): void {
    this.send({ jsonrpc: "2.0", id, result });
  }

  replyError(id: unknown, code: number, message: string): void {
    this.send({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /** The first frame not yet taken that matches (any frame by default); waits for it if needed. */
  next(match: (frame: Frame) => boolean = () => true, timeoutMs = 5_000): Promise<Frame> {
    const i = this.unclaimed.findIndex(match);
    if (i >= 0) return Promise.resolve(this.unclaimed.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching frame within ${timeoutMs} ms; stderr:\n${this.stderr}`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Frames written but not taken yet. */
  pending(): Frame[] {
    return [...this.unclaimed];
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    this.child.kill(signal);
  }

  /** Waits for the exit, killing the process if it is still running after timeoutMs. */
  async stop(timeoutMs = 5_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.closeStdin();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private onStdout(text: string): void {
    const lines = (this.stdoutRest + text).split("\n");
    this.stdoutRest = lines.pop()!;
    for (const line of lines) {
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        frame = undefined;
      }
      if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
        this.strayLines.push(line);
        continue;
      }
      this.frames.push(frame as Frame);
      const waiter = this.waiters.find((w) => w.match(frame as Frame));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(frame as Frame);
      } else {
        this.unclaimed.push(frame as Frame);
      }
    }
  }
}

/** Runs fn with a fresh plugin, then stops it and checks that stdout carried only frames. */
export async function withPlugin<T>(fn: (plugin: Plugin) => Promise<T>, options?: StartOptions): Promise<T> {
  const plugin = new Plugin(options);
  try {
    return await fn(plugin);
  } finally {
    await plugin.stop();
    if (plugin.strayLines.length > 0) {
      throw new Error(`stdout carried non-frame lines: ${JSON.stringify(plugin.strayLines.slice(0, 3))}`);
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
