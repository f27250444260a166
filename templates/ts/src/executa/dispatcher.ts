/** The dispatcher: one decoded frame -> the right answer (or none), per the runtime contract. */
import { InvokeContext } from "./context.js";
import { HostError, RpcCode, ToolError } from "./errors.js";
import type { HostChannel } from "./host.js";
import type { Stopper } from "./stopping.js";
import type { TurnQueue } from "./turns.js";
import type { Bindings, Manifest, ToolDefinition, ToolFunction } from "./types.js";
import { MAX_DEPTH } from "./deep.js";
import { wellFormed } from "./framing.js";
import { checkArguments, isObject, jsonType } from "./validate.js";
import { NotJson, type FrameWriter, type Id } from "./writer.js";

/** `host_capabilities` -> `initialize` `client_capabilities` (the same table as create-executa's protocol/capabilities.ts). */
/** manifest host_capabilities -> initialize client_capabilities: create-executa's protocol/capabilities.ts (the platform's allow-list). */
const CLIENT_CAPABILITIES: Record<string, Record<string, Record<string, unknown>>> = {
  "aps.files": { storage: { files: true } },
  "aps.kv": { storage: { kv: true } },
  "aps.scope.admin": { storage: { kv: true, files: true } },
  "aps.scope.app.read": { storage: { kv: true } },
  "aps.scope.app.write": { storage: { kv: true } },
  "aps.scope.tool.read": { storage: { kv: true } },
  "aps.scope.tool.write": { storage: { kv: true } },
  "aps.scope.user.read": { storage: { kv: true } },
  "aps.scope.user.write": { storage: { kv: true } },
  "host.upload": { upload: {} },
  "llm.agent.auto": { agent: { submodes: ["auto"] } },
  "llm.agent.fixed": { agent: { submodes: ["fixed"] } },
  "llm.embed": { embeddings: {} },
  "llm.image": { image: {} },
  "llm.image.edit": { "image.edit": {} },
  "llm.sample": { sampling: {} },
  "web.fetch": { web: { fetch: true } },
  "web.search": { web: { search: true } },
};

/** The client capabilities of these host capabilities, merged (lists are joined, each item once). */
export function clientCapabilities(hostCapabilities: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of hostCapabilities) {
    if (!Object.hasOwn(CLIENT_CAPABILITIES, name)) continue;
    for (const [key, value] of Object.entries(CLIENT_CAPABILITIES[name]!)) {
      const merged: Record<string, unknown> = { ...out[key] };
      for (const [k, v] of Object.entries(value)) {
        const before = merged[k];
        merged[k] = Array.isArray(before) && Array.isArray(v) ? [...new Set([...before, ...v])] : v;
      }
      out[key] = merged;
    }
  }
  return out;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/** A request id the runtime answers: a string, an integer within ±(2^53−1), or null. */
const isId = (id: unknown): id is Id => id === null || typeof id === "string" || Number.isSafeInteger(id);
const BAD_ID = "Invalid Request: id must be a string, an integer within ±(2^53−1), or null";

/** What a thrown value looks like in the log, whatever it is. */
function describeThrown(value: unknown): string {
  try {
    if (value instanceof Error) return typeof value.stack === "string" ? value.stack : `${value.name}: ${value.message}`;
    return String(value);
  } catch {
    try {
      return `a value that cannot be shown (${Object.prototype.toString.call(value)})`;
    } catch {
      return "a value that cannot be shown";
    }
  }
}

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
    /** Where invokes wait that were read while their tool's module was still being imported. */
    private readonly afterImport: TurnQueue,
  ) {
    for (const tool of manifest.tools) this.tools.set(tool.name, tool);
  }

  /** A frame that failed to decode. */
  parseError(message: string): void {
    this.writer.error(null, RpcCode.ParseError, message);
  }

  /**
   * Valid JSON nested too deep to take; `idText` is its top-level id, if a shallow scan found one.
   * A response is never answered: the reverse request it names fails instead.
   */
  tooDeep(idText: string | undefined, response: boolean): void {
    let id: unknown = null;
    try {
      id = idText === undefined ? null : wellFormed(JSON.parse(idText));
    } catch {}
    if (response) this.channel.tooDeep(id);
    else this.writer.error(isId(id) ? id : null, RpcCode.InvalidParams, `Invalid params: JSON nests deeper than ${MAX_DEPTH} levels`);
  }

  frame(frame: unknown): void {
    if (!isObject(frame)) {
      this.writer.error(null, RpcCode.InvalidRequest, `Invalid Request: expected a JSON object, got ${jsonType(frame)}`);
      return;
    }
    const hasId = Object.hasOwn(frame, "id");
    const id = hasId && isId(frame.id) ? frame.id : null;
    if (!Object.hasOwn(frame, "method")) {
      if (hasId && (Object.hasOwn(frame, "result") || Object.hasOwn(frame, "error") || this.channel.waitsFor(frame.id))) {
        this.channel.settle(frame);
      } else {
        this.writer.error(id, RpcCode.InvalidRequest, "Invalid Request: no 'method'");
      }
      return;
    }
    if (!hasId) return; // a notification: never answered
    if (!isId(frame.id)) {
      this.writer.error(null, RpcCode.InvalidRequest, BAD_ID);
    } else if (frame.jsonrpc !== "2.0") {
      this.writer.error(id, RpcCode.InvalidRequest, "Invalid Request: 'jsonrpc' must be \"2.0\"");
    } else if (typeof frame.method !== "string") {
      this.writer.error(id, RpcCode.InvalidRequest, "Invalid Request: 'method' must be a string");
    } else if (this.stopper.stopping) {
      this.writer.error(id, RpcCode.ShuttingDown, "Shutting down");
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
    this.channel.declined = v2 ? undefined : `this host's initialize offered ${offered(asked)}`;
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
    const run = (fn: ToolFunction) => {
      try {
        const outcome = call(fn);
        // A synchronous tool is answered at once; a promise when it settles.
        if (isThenable(outcome)) {
          Promise.resolve(outcome).then(
            (data) => this.answer(id, ctx, start, true, data),
            (err) => this.answer(id, ctx, start, false, err),
          );
        } else {
          this.answer(id, ctx, start, true, outcome);
        }
      } catch (err) {
        this.answer(id, ctx, start, false, err);
      }
    };
    const ready = this.loaded.get(name);
    if (ready !== undefined) {
      run(ready);
      return;
    }
    // The invokes that waited for the tool's module run as if they had been read one by one.
    Promise.resolve()
      .then(() => binding.load())
      .then(
        (fn) => {
          this.loaded.set(name, fn);
          this.afterImport.add(() => run(fn));
        },
        (err) => this.answer(id, ctx, start, false, err),
      );
  }

  private answer(id: Id, ctx: InvokeContext, start: number, ok: boolean, value: unknown): void {
    ctx.finish();
    const name = ctx.tool;
    const duration_ms = Math.round(performance.now() - start);
    const internal = (why: string) => {
      this.log(`executa: tool '${name}' ${why}`);
      this.writer.error(id, RpcCode.InternalError, `Tool '${name}' failed unexpectedly; see the plugin's stderr`);
    };
    try {
      if (ok) {
        try {
          this.writer.result(id, { success: true, data: value === undefined ? null : value, duration_ms });
        } catch (err) {
          const notJson = `Tool '${name}' returned a value that is not valid JSON`;
          if (err instanceof NotJson) {
            this.writer.error(id, RpcCode.InternalError, `${notJson} (NaN or Infinity)`);
          } else {
            this.log(`executa: tool '${name}' returned a value that is not valid JSON: ${describeThrown(err)}`);
            this.writer.error(id, RpcCode.InternalError, `${notJson}; see the plugin's stderr`);
          }
        }
        return;
      }
      const expected = expectedFailure(value);
      if (expected !== undefined) this.writer.result(id, { success: false, error: expected, duration_ms });
      else internal(`threw:\n${describeThrown(value)}`);
    } catch (err) {
      internal(`could not be answered: ${describeThrown(err)}`);
    } finally {
      this.stopper.finished();
    }
  }
}

/** The `error` of a `{success: false}` answer, for a ToolError or a HostError; undefined for anything else. */
function expectedFailure(value: unknown): string | undefined {
  try {
    if (value instanceof ToolError) return String(value.message);
    if (value instanceof HostError) return `${value.method} failed: [${value.code} ${value.codeName}] ${value.message}`;
  } catch {}
  return undefined;
}

/** What an initialize offered, for the refusal of a reverse request: `protocolVersion "1.1"`. */
function offered(asked: unknown): string {
  if (asked === undefined) return "no protocolVersion";
  if (typeof asked === "string") return `protocolVersion ${JSON.stringify(asked.slice(0, 40))}`;
  return `a protocolVersion that is not a string (${asked === null ? "null" : typeof asked})`;
}
