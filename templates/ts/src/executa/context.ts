/** The ToolContext a tool receives: invoke id, deadline, credentials, host client, progress, log. */
import { format } from "node:util";
import type { HostChannel } from "./host.js";
import type { HostClient, ProgressType, ToolContext, ToolDefinition } from "./types.js";
import { isObject } from "./validate.js";

const DEFAULT_TIMEOUT_S = 60;
/** The latest deadline a host can give: the end of JavaScript's Date range. */
const LATEST_DEADLINE_MS = 8.64e15;

/** An invoke id as a string: a string as is, a finite number in its shortest JSON form; anything else counts as absent. */
function invokeIdText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  return typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;
}

export class InvokeContext implements ToolContext {
  readonly tool: string;
  readonly invokeId: string;
  readonly deadlineMs: number;
  private readonly credentials: Record<string, unknown>;
  private readonly channel: HostChannel;
  private hostClient: HostClient | undefined;
  /** Set when the invoke is answered: progress after that is a mistake. */
  private finished = false;

  constructor(tool: ToolDefinition, params: Record<string, unknown>, channel: HostChannel) {
    const context = isObject(params.context) ? params.context : {};
    this.tool = tool.name;
    this.invokeId = invokeIdText(context.invoke_id) ?? invokeIdText(params.invoke_id) ?? "";
    const deadline = context.deadline_ms;
    this.deadlineMs =
      typeof deadline === "number" && Number.isFinite(deadline)
        ? Math.min(Math.max(deadline, 0), LATEST_DEADLINE_MS)
        : Date.now() + (typeof tool.timeout === "number" && tool.timeout > 0 ? tool.timeout : DEFAULT_TIMEOUT_S) * 1000;
    this.credentials = isObject(context.credentials) ? context.credentials : {};
    this.channel = channel;
  }

  credential(name: string): string | undefined {
    const given = Object.hasOwn(this.credentials, name) ? this.credentials[name] : undefined;
    if (typeof given === "string" && given !== "") return given;
    const env = Object.hasOwn(process.env, name) ? process.env[name] : undefined;
    return typeof env === "string" && env !== "" ? env : undefined;
  }

  get host(): HostClient {
    return (this.hostClient ??= this.channel.client(this.invokeId, this.deadlineMs, (message) => this.log(message)));
  }

  progress(data: Record<string, unknown>, type: ProgressType = "progress"): void {
    if (this.finished) {
      throw new Error(`progress: invoke ${JSON.stringify(this.invokeId)} of tool ${this.tool} has already been answered; report progress before the tool returns`);
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      throw new TypeError(`progress: data must be a JSON object, like {step: 2, of: 5}; got ${data === null ? "null" : Array.isArray(data) ? "an array" : typeof data}`);
    }
    if (type !== "progress" && type !== "tool_update") throw new TypeError(`progress: type must be "progress" or "tool_update", got ${JSON.stringify(type)}`);
    this.channel.progress(this.invokeId, type, data);
  }

  /** The invoke was answered. */
  finish(): void {
    this.finished = true;
  }

  log(...args: unknown[]): void {
    const tag = this.invokeId === "" ? this.tool : `${this.tool} ${this.invokeId}`;
    process.stderr.write(`[${tag}] ${format(...args)}\n`);
  }
}
