/** The dispatcher: one decoded frame -> the right answer (or none), per the runtime contract. */
import { InvokeContext } from "./context.js";
import { HostError, RpcCode, ToolError } from "./errors.js";
import type { HostChannel } from "./host.js";
import type { Stopper } from "./stopping.js";
import type { Bindings, Manifest, ToolDefinition, ToolFunction } from "./types.js";
import { checkArguments, isObject } from "./validate.js";
import type { FrameWriter, Id } from "./writer.js";

/** `host_capabilities` -> `initialize` `client_capabilities`. */
const CLIENT_CAPABILITIES: Record<string, Record<string, Record<string, unknown>>> = {
  "llm.sample": { sampling: {} },
  "llm.agent.auto": { agent: { submodes: ["auto"] } },
  "aps.kv": { storage: { kv: true } },
  "aps.files": { storage: { files: true } },
  "host.upload": { upload: {} },
  "llm.image": { image: {} },
  "llm.image.edit": { "image.edit": {} },
  "llm.embed": { embeddings: {} },
};

export function clientCapabilities(hostCapabilities: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of hostCapabilities) {
    for (const [key, value] of Object.entries(CLIENT_CAPABILITIES[name] ?? {})) out[key] = { ...out[key], ...value };
  }
  return out;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

const isId = (id: unknown): id is Id => id === null || typeof id === "string" || typeof id === "number";

export class Dispatcher {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly loaded = new Map<string, ToolFunction>();

  constructor(
    private readonly manifest: Manifest,
    private readonly bindings: Bindings,
    private readonly writer: FrameWriter,
    private readonly channel: HostChannel,
    private readonly stopper: Stopper,
    private readonly log: (message: string) => void,
  ) {
    for (const tool of manifest.tools) this.tools.set(tool.name, tool);
  }

  /** A frame that failed to decode. */
  parseError(message: string): void {
    this.writer.error(null, RpcCode.ParseError, message);
  }

  frame(frame: unknown): void {
    if (!isObject(frame)) {
      const what = Array.isArray(frame) ? "batches are not supported" : `expected an object, got ${typeof frame}`;
      this.writer.error(null, RpcCode.InvalidRequest, `Invalid Request: ${what}`);
      return;
    }
    const hasId = Object.hasOwn(frame, "id");
    const id = hasId && isId(frame.id) ? frame.id : null;
    if (!Object.hasOwn(frame, "method")) {
      if (hasId && (Object.hasOwn(frame, "result") || Object.hasOwn(frame, "error"))) {
        this.channel.settle(frame);
      } else {
        this.writer.error(id, RpcCode.InvalidRequest, "Invalid Request: no 'method'");
      }
      return;
    }
    if (!hasId) return; // a notification: never answered
    if (this.stopper.stopping) {
      this.log(`executa: stopping; request ${JSON.stringify(frame.id)} not taken`);
      return;
    }
    if (!isId(frame.id)) {
      this.writer.error(null, RpcCode.InvalidRequest, "Invalid Request: 'id' must be a string, a number or null");
    } else if (frame.jsonrpc !== "2.0") {
      this.writer.error(id, RpcCode.InvalidRequest, "Invalid Request: 'jsonrpc' must be \"2.0\"");
    } else if (typeof frame.method !== "string") {
      this.writer.error(id, RpcCode.InvalidRequest, "Invalid Request: 'method' must be a string");
    } else {
      this.method(id, frame.method, frame.params);
    }
  }

  private method(id: Id, method: string, params: unknown): void {
    switch (method) {
      case "invoke":
        this.invoke(id, params);
        return;
      case "describe":
        this.writer.result(id, this.manifest);
        return;
      case "initialize":
        this.writer.result(id, this.initialize(params));
        return;
      case "health":
        this.writer.result(id, {
          status: "ready",
          message: "",
          details: { tools: this.manifest.tools.length, in_flight: this.stopper.running },
        });
        return;
      case "shutdown":
        this.writer.result(id, { ok: true });
        this.stopper.begin("shutdown");
        return;
      default:
        this.writer.error(id, RpcCode.MethodNotFound, `Method not found: ${method}`);
    }
  }

  private initialize(params: unknown): Record<string, unknown> {
    const asked = isObject(params) ? params.protocolVersion : undefined;
    const v2 = typeof asked === "string" && (asked === "2.0" || asked.startsWith("2."));
    this.channel.v2 = v2;
    return {
      protocolVersion: v2 ? "2.0" : "1.1",
      serverInfo: { name: this.manifest.display_name || this.manifest.name, version: this.manifest.version },
      capabilities: {},
      client_capabilities: clientCapabilities(this.manifest.host_capabilities ?? []),
    };
  }

  private invoke(id: Id, params: unknown): void {
    if (!isObject(params) || typeof params.tool !== "string") {
      this.writer.error(id, RpcCode.InvalidParams, "Missing 'tool' in params");
      return;
    }
    const name = params.tool;
    const tool = this.tools.get(name);
    if (tool === undefined) {
      this.writer.error(id, RpcCode.MethodNotFound, `Unknown tool: ${name}`, {
        available_tools: this.manifest.tools.map((t) => t.name),
      });
      return;
    }
    const given = params.arguments === undefined ? {} : params.arguments;
    if (!isObject(given)) {
      this.writer.error(id, RpcCode.InvalidParams, "'arguments' must be an object");
      return;
    }
    const checked = checkArguments(tool, given);
    if (!checked.ok) {
      this.writer.error(id, RpcCode.InvalidParams, `Invalid arguments for tool '${name}'`, { errors: checked.errors });
      return;
    }
    const binding = this.bindings[name];
    if (binding === undefined) {
      this.log(`executa: tool '${name}' is in manifest.json but has no binding; run \`executa manifest\``);
      this.writer.error(id, RpcCode.InternalError, `Tool '${name}' failed unexpectedly; see the plugin's stderr`);
      return;
    }

    const ctx = new InvokeContext(tool, params, this.channel);
    const args = checked.args;
    const call = (fn: ToolFunction) =>
      binding.style === "positional" ? fn(...binding.params.map((p) => args[p]), ctx) : fn(args, ctx);
    const start = performance.now();
    this.stopper.started();
    let outcome: unknown;
    try {
      const fn = this.loaded.get(name);
      outcome =
        fn !== undefined
          ? call(fn)
          : binding.load().then((loaded) => {
              this.loaded.set(name, loaded);
              return call(loaded);
            });
    } catch (err) {
      this.answer(id, name, start, false, err);
      return;
    }
    // A synchronous tool is answered at once; a promise when it settles.
    if (isThenable(outcome)) {
      Promise.resolve(outcome).then(
        (data) => this.answer(id, name, start, true, data),
        (err) => this.answer(id, name, start, false, err),
      );
    } else {
      this.answer(id, name, start, true, outcome);
    }
  }

  private answer(id: Id, name: string, start: number, ok: boolean, value: unknown): void {
    const duration_ms = Math.round(performance.now() - start);
    try {
      if (ok) {
        this.writer.result(id, { success: true, data: value === undefined ? null : value, duration_ms });
      } else if (value instanceof ToolError) {
        this.writer.result(id, { success: false, error: value.message, duration_ms });
      } else if (value instanceof HostError) {
        const error = `${value.method} failed: [${value.code}] ${value.message}`;
        this.writer.result(id, { success: false, error, duration_ms });
      } else {
        this.log(`executa: tool '${name}' threw:\n${value instanceof Error ? (value.stack ?? value.message) : String(value)}`);
        this.writer.error(id, RpcCode.InternalError, `Tool '${name}' failed unexpectedly; see the plugin's stderr`);
      }
    } finally {
      this.stopper.finished();
    }
  }
}
