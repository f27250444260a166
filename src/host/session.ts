/** One running plugin, spoken to the way the Agent speaks to it: initialize, describe, health and invokes with a context. */
import { PROTOCOL_V1, PROTOCOL_V2, Timeouts } from "../protocol/index.js";
import { PluginChannel } from "./channel.js";
import { RpcTimeout, TIMED_OUT, within, type InvokeOptions, type Response } from "./session-types.js";

export class Session extends PluginChannel {
  /** `initialize` offering a version; notes whether 2.0 was negotiated. -32601 means a v1 plugin. */
  async initialize(version: string = PROTOCOL_V2, timeoutMs: number = Timeouts.describeMs): Promise<Response> {
    this.initializeSent = true;
    const r = await this.request(
      "initialize",
      { protocolVersion: version, clientInfo: { name: "executa", version: "test" }, host_capabilities: {} },
      timeoutMs,
    );
    const result = r.frame.result as Record<string, unknown> | undefined;
    this.protocolVersion =
      typeof result?.protocolVersion === "string"
        ? result.protocolVersion
        : "error" in r.frame
          ? PROTOCOL_V1
          : undefined;
    this.negotiatedV2 = this.protocolVersion === PROTOCOL_V2 || Boolean(this.protocolVersion?.startsWith("2."));
    return r;
  }

  async describe(timeoutMs: number = Timeouts.describeMs): Promise<Response> {
    const r = await this.request("describe", undefined, timeoutMs);
    const manifest = r.frame.result as Record<string, unknown> | undefined;
    const caps = manifest?.host_capabilities;
    if (typeof manifest?.name === "string" && manifest.name) this.toolId = manifest.name;
    if (Array.isArray(caps)) this.hostCapabilities = caps.filter((c): c is string => typeof c === "string");
    else if (r.frame.result) this.hostCapabilities = [];
    return r;
  }

  health(timeoutMs: number = Timeouts.healthMs): Promise<Response> {
    return this.request("health", undefined, timeoutMs);
  }

  /** The invoke's answer promise; the invoke counts as active (for routing) until it is answered. */
  callInvoke(
    tool: string,
    args: unknown,
    options: InvokeOptions = {},
  ): { invokeId: string; promise: Promise<Response> } {
    const invokeId = options.invokeId ?? `inv-${this.mockHost.ids.next("invoke").slice(0, 16)}`;
    const timeoutMs = options.timeoutMs ?? Timeouts.invokeDefaultS * 1000;
    const deadlineMs = options.deadlineMs ?? Date.now() + timeoutMs;
    const id = options.id ?? this.nextId++;
    this.activeInvokes.set(invokeId, { invokeId, tool, requestId: id, deadlineMs });
    const context: Record<string, unknown> = { invoke_id: invokeId, deadline_ms: deadlineMs };
    if (options.credentials) context.credentials = options.credentials;
    const promise = this.call("invoke", { tool, arguments: args, context }, id, invokeId);
    promise.catch(() => this.finishInvoke(invokeId));
    return { invokeId, promise };
  }

  async invoke(tool: string, args: unknown, options: InvokeOptions = {}): Promise<Response> {
    const timeoutMs = options.timeoutMs ?? Timeouts.invokeDefaultS * 1000;
    const { invokeId, promise } = this.callInvoke(tool, args, { ...options, timeoutMs });
    const r = await within(promise, timeoutMs);
    if (r === TIMED_OUT) {
      this.finishInvoke(invokeId);
      throw new RpcTimeout(`invoke ${tool}`, timeoutMs);
    }
    return r;
  }
}
