/** The test-only tools, as test/runtimes/test-plugin.json declares them; the same in every language. */
import { setTimeout as sleep } from "node:timers/promises";
import { ToolError, type ToolContext } from "../../../templates/ts/src/executa/index.js";

export const echo = (args: Record<string, unknown>) => args;

export const nothing = (): void => undefined;

/** An error that cannot even be described: its stack and message getters throw. */
function unprintable(): Error {
  const error = new Error("hidden");
  for (const key of ["stack", "message"]) {
    Object.defineProperty(error, key, {
      get() {
        throw new Error(`no ${key} for you`);
      },
    });
  }
  return error;
}

export function fail({ kind }: { kind: string }): unknown {
  if (kind === "tool") throw new ToolError("it failed as asked");
  if (kind === "crash") throw new Error("boom");
  if (kind === "hostile") throw Object.create(null);
  return Promise.reject(unprintable());
}

export const nan = ({ which }: { which: string }) => ({ value: which === "nan" ? NaN : which === "inf" ? Infinity : -Infinity });

export async function slow({ ms }: { ms: number }) {
  await sleep(ms);
  return { slept: ms };
}

export const slow_async = slow;

export const big = ({ bytes }: { bytes: number }) => "x".repeat(bytes);

export const size = ({ text }: { text: string }) => ({ bytes: Buffer.byteLength(text, "utf8") });

export const credential = ({ name }: { name: string }, ctx: ToolContext) => ({ value: ctx.credential(name) ?? null });

export const context = (_args: unknown, ctx: ToolContext) => ({ tool: ctx.tool, invoke_id: ctx.invokeId, deadline_ms: ctx.deadlineMs });

export const sample = ({ prompt }: { prompt: string }, ctx: ToolContext) => ctx.host.sample({ prompt });

export async function storage({ key, value }: { key: string; value: unknown }, ctx: ToolContext) {
  const set = await ctx.host.storage.set(key, value);
  return { set, get: await ctx.host.storage.get(key) };
}

export const host_call = ({ method, params, timeout_ms }: { method: string; params?: Record<string, unknown>; timeout_ms?: number }, ctx: ToolContext) =>
  ctx.host.request(method, params, timeout_ms);

export function print() {
  console.log("print: console.log");
  console.info("print: console.info");
  console.debug("print: console.debug");
  process.stdout.write("print: process.stdout.write\n");
  return { ok: true };
}

export const lone_surrogate = () => ({ text: "a\ud800b" });

/** The typed host-service helpers by name (docs/runtime-contract.md, the test tools). */
export function service({ call }: { call: string; args?: Record<string, unknown> }): never {
  throw new ToolError(`service: no helper named ${JSON.stringify(call)} yet`);
}
