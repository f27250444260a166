/** The ToolContext a tool receives: invoke id, deadline, credentials, host client, log. */
import { format } from "node:util";
import type { HostChannel } from "./host.js";
import type { HostClient, ToolContext, ToolDefinition } from "./types.js";
import { isObject } from "./validate.js";

const DEFAULT_TIMEOUT_S = 60;

export class InvokeContext implements ToolContext {
  readonly tool: string;
  readonly invokeId: string;
  readonly deadlineMs: number;
  private readonly credentials: Record<string, unknown>;
  private readonly channel: HostChannel;
  private hostClient: HostClient | undefined;

  constructor(tool: ToolDefinition, params: Record<string, unknown>, channel: HostChannel) {
    const context = isObject(params.context) ? params.context : {};
    this.tool = tool.name;
    const invokeId = context.invoke_id ?? params.invoke_id;
    this.invokeId = typeof invokeId === "string" ? invokeId : typeof invokeId === "number" ? String(invokeId) : "";
    this.deadlineMs =
      typeof context.deadline_ms === "number"
        ? context.deadline_ms
        : Date.now() + (typeof tool.timeout === "number" ? tool.timeout : DEFAULT_TIMEOUT_S) * 1000;
    this.credentials = isObject(context.credentials) ? context.credentials : {};
    this.channel = channel;
  }

  credential(name: string): string | undefined {
    const given = this.credentials[name];
    if (typeof given === "string" && given !== "") return given;
    const env = process.env[name];
    return env === undefined || env === "" ? undefined : env;
  }

  get host(): HostClient {
    return (this.hostClient ??= this.channel.client(this.invokeId, this.deadlineMs));
  }

  log(...args: unknown[]): void {
    const tag = this.invokeId === "" ? this.tool : `${this.tool} ${this.invokeId}`;
    process.stderr.write(`[${tag}] ${format(...args)}\n`);
  }
}
