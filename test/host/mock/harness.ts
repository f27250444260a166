/** Calls into a MockHost the way Session does, for the unit tests. */
import type { ActiveInvoke, Answer, MockHost, ReverseContext } from "../../../src/host/index.js";

export function active(...ids: string[]): Map<string, ActiveInvoke> {
  return new Map(ids.map((id, i) => [id, { invokeId: id, tool: "t", requestId: i, deadlineMs: 0 }]));
}

export function ctx(ids: string[] = ["a"], caps?: string[], v2 = true): ReverseContext {
  return { negotiatedV2: v2, hostCapabilities: caps, activeInvokes: active(...ids) };
}

let nextId = 0;

/** One reverse request on behalf of invoke `invoke` (stamped in context.invoke_id unless null). */
export function call(
  host: MockHost,
  method: string,
  params: Record<string, unknown> = {},
  options: { invoke?: string | null; ctx?: ReverseContext } = {},
): Promise<Answer> {
  const invoke = options.invoke === undefined ? "a" : options.invoke;
  const stamped = invoke === null ? params : { ...params, context: { invoke_id: invoke } };
  return host.handle(
    { jsonrpc: "2.0", id: `r${++nextId}`, method, params: stamped },
    options.ctx ?? ctx(invoke ? [invoke] : ["a"]),
  );
}

export function result<T = Record<string, unknown>>(answer: Answer): T {
  if ("error" in answer) throw new Error(`expected a result, got error ${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}

export function error(answer: Answer): {
  code: number;
  message: string;
  data?: { errorCode?: string } & Record<string, unknown>;
} {
  if (!("error" in answer))
    throw new Error(`expected an error, got result ${JSON.stringify(answer.result).slice(0, 300)}`);
  return answer.error as never;
}

export const user = (text: string) => ({
  messages: [{ role: "user", content: { type: "text", text } }],
  maxTokens: 100,
});

/** A clock the test moves by hand. */
export function fakeClock(start = Date.UTC(2026, 0, 1)): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}
