/**
 * `executa/progress` notifications from a running tool, read the way the platform relays them
 * (anna-app-runtime-local's pool): `params.context.invoke_id` must name an invoke that is running,
 * `type` is "progress" or "tool_update" (anything else is shown as progress), `data` is an object
 * (anything else becomes `{}`). What the platform would drop or change is a problem, never a crash.
 */
import { PROGRESS_TYPES } from "../protocol/index.js";

export interface ProgressEvent {
  /** Milliseconds since the session started. */
  t: number;
  /** `params.context.invoke_id` as sent (undefined when absent or not a string). */
  invokeId: string | undefined;
  /** The tool of that invoke, when it was running. */
  tool?: string;
  type: unknown;
  data: unknown;
  /** What the platform would do differently from what the plugin meant (dropped, changed). */
  problem?: string;
}

export type InvokeState = "running" | "finished" | "unknown";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

/** Reads one notification's params; `stateOf` says whether an invoke id is running, finished or never seen. */
export function readProgress(
  params: unknown,
  t: number,
  stateOf: (invokeId: string) => { state: InvokeState; tool?: string },
): ProgressEvent {
  const p = isObject(params) ? params : {};
  const context = isObject(p.context) ? p.context : {};
  const invokeId = typeof context.invoke_id === "string" ? context.invoke_id : undefined;
  const event: ProgressEvent = { t, invokeId, type: p.type, data: p.data };
  const problems: string[] = [];
  if (!isObject(params)) problems.push("params is not an object; the platform drops the notification");
  else if (invokeId === undefined)
    problems.push(
      "params.context.invoke_id is missing; the platform drops a progress notification it cannot route to a running invoke",
    );
  else {
    const { state, tool } = stateOf(invokeId);
    if (tool !== undefined) event.tool = tool;
    if (state === "finished")
      problems.push(
        `invoke ${shown(invokeId)} had already finished; the platform drops progress for a finished invoke (report progress before returning)`,
      );
    else if (state === "unknown")
      problems.push(
        `invoke ${shown(invokeId)} is not one the host started; the platform drops it (send the running invoke's context.invoke_id)`,
      );
  }
  if (p.type !== undefined && !(PROGRESS_TYPES as readonly unknown[]).includes(p.type)) {
    problems.push(
      `type ${shown(p.type)} is neither ${PROGRESS_TYPES.map((x) => `"${x}"`).join(" nor ")}; the platform shows it as "progress"`,
    );
  }
  if (!isObject(p.data))
    problems.push(
      `data ${p.data === undefined ? "is missing" : `${shown(p.data)} is not a JSON object`}; the platform relays {} instead`,
    );
  if (problems.length) event.problem = problems.join("; ");
  return event;
}

/** A one-line rendering for `executa dev`: `<~ progress {"step":2}` (with the problem, if any). */
export function progressLine(event: ProgressEvent): string {
  const type = typeof event.type === "string" ? event.type : "progress";
  const data = JSON.stringify(event.data) ?? "undefined";
  return `<~ ${type} ${data.length > 300 ? `${data.slice(0, 300)}…` : data}${event.problem ? ` (problem: ${event.problem})` : ""}`;
}
