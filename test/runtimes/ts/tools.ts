/** The test-only tools, as test/runtimes/test-plugin.json declares them; the same in every language. */
import { setTimeout as sleep } from "node:timers/promises";
import {
  HostError,
  ToolError,
  WebError,
  withDisplay,
  type HostClient,
  type SampleResult,
  type ToolContext,
} from "../../../templates/ts/src/executa/index.js";

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

export const nan = ({ which }: { which: string }) => ({
  value: which === "nan" ? NaN : which === "inf" ? Infinity : -Infinity,
});

export async function slow({ ms }: { ms: number }) {
  await sleep(ms);
  return { slept: ms };
}

/** The Python runtime's `async def` twin of `slow`, under the same name in every language's vectors. */
export const slow_async = (args: { ms: number }) => slow(args);

export const big = ({ bytes }: { bytes: number }) => "x".repeat(bytes);

export const size = ({ text }: { text: string }) => ({ bytes: Buffer.byteLength(text, "utf8") });

export const credential = ({ name }: { name: string }, ctx: ToolContext) => ({ value: ctx.credential(name) ?? null });

export const context = (_args: unknown, ctx: ToolContext) => ({
  tool: ctx.tool,
  invoke_id: ctx.invokeId,
  deadline_ms: ctx.deadlineMs,
});

export const sample = ({ prompt }: { prompt: string }, ctx: ToolContext) => ctx.host.sample({ prompt });

export async function storage({ key, value }: { key: string; value: unknown }, ctx: ToolContext) {
  const set = await ctx.host.storage.set(key, value);
  return { set, get: await ctx.host.storage.get(key) };
}

export const host_call = (
  { method, params, timeout_ms }: { method: string; params?: Record<string, unknown>; timeout_ms?: number },
  ctx: ToolContext,
) => ctx.host.request(method, params, timeout_ms);

export function print() {
  console.log("print: console.log");
  console.info("print: console.info");
  console.debug("print: console.debug");
  process.stdout.write("print: process.stdout.write\n");
  return { ok: true };
}

export const lone_surrogate = () => ({ text: "a\ud800b" });

type Args = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `args.text` as UTF-8, or `args.size` bytes of x. */
const bytesOf = (args: Args) =>
  typeof args.text === "string" ? Buffer.from(args.text, "utf8") : Buffer.alloc(Number(args.size ?? 0), "x");

const sampled = (r: SampleResult) => ({
  text: r.text,
  structured_valid: r.structuredValid,
  downgraded: r.downgraded,
  parsed: r.parsed ?? null,
});

/** The context `progress.keep` kept, for `progress.late` to report progress on after its invoke was answered. */
let kept: ToolContext | undefined;

/** Each `service` call: the helper it runs and the normalised result (docs/runtime-contract.md, the test tools). */
const SERVICE_CALLS: Record<string, (host: HostClient, args: Args, ctx: ToolContext) => Promise<unknown> | unknown> = {
  sample: async (host, args) => sampled(await host.sample(args)),
  "agent.complete": async (host, args) => sampled(await host.agent.complete(args)),
  "agent.create": async (host, args) => ({ uuid: (await host.agent.create(args)).uuid }),
  "agent.run": async (host, args) => {
    const run = await host.agent.session(args.uuid).run(args.content, args);
    return { run_id: run.runId, text: run.text, warnings: run.warnings, events: run.frames.map((f) => f.event) };
  },
  "agent.cancel": (host, args) => host.agent.session(args.uuid).cancel(args.runId, args),
  "agent.history": (host, args) => host.agent.session(args.uuid).history(args),
  "agent.refresh": (host, args) => host.agent.session(args.uuid).refresh(args),
  "agent.delete": (host, args) => host.agent.session(args.uuid).delete(args),
  "agent.list": (host, args) => host.agent.list(args),
  "embeddings.create": async (host, args) => ({ vectors: (await host.embeddings.create(args.input, args)).vectors }),
  "image.generate": (host, args) => host.image.generate(args as never),
  "image.edit": (host, args) => host.image.edit(args as never),
  upload: (host, args) => host.upload(bytesOf(args), args as never),
  "files.upload": (host, args) => host.files.upload(args.path, bytesOf(args), args),
  "files.downloadUrl": (host, args) => host.files.downloadUrl(args.path, args),
  "files.list": (host, args) => host.files.list(args),
  "files.delete": (host, args) => host.files.delete(args.path, args),
  "storage.get": (host, args) => host.storage.get(args.key, args),
  "storage.set": (host, args) => host.storage.set(args.key, args.value, args),
  "storage.delete": (host, args) => host.storage.delete(args.key, args),
  "storage.list": (host, args) => host.storage.list(args),
  display: (_host, args) => withDisplay(args.data, args.display),
  "web.search": (host, args) => host.web.search(args as never),
  "web.fetch": (host, args) => host.web.fetch(args as never),
  progress: (_host, args, ctx) => {
    ctx.progress(args.data, args.type);
    return { sent: true };
  },
  "progress.keep": (_host, _args, ctx) => {
    kept = ctx;
    return { kept: true };
  },
  "progress.late": () => {
    kept!.progress({ late: true });
    return { sent: true };
  },
};

/** The calls whose refusals (an error of the runtime's, not a HostError) are answered as `{error}` too. */
const PROGRESS_CALLS = new Set(["progress", "progress.late"]);

/** The typed host-service helpers by name: `{result}`, or `{error: {code, code_name, message}}` for a HostError (or the display helper's TypeError). */
export async function service({ call, args = {} }: { call: string; args?: Args }, ctx: ToolContext) {
  const helper = Object.hasOwn(SERVICE_CALLS, call) ? SERVICE_CALLS[call]! : undefined;
  if (helper === undefined) throw new ToolError(`service: no helper named ${JSON.stringify(call)}`);
  try {
    return { result: await helper(ctx.host, args, ctx) };
  } catch (error) {
    if (error instanceof WebError)
      return {
        error: { code: error.code, code_name: error.codeName, error_code: error.errorCode, message: error.message },
      };
    if (error instanceof HostError)
      return { error: { code: error.code, code_name: error.codeName, message: error.message } };
    if (error instanceof TypeError && call === "display")
      return { error: { code: 0, code_name: "TypeError", message: error.message } };
    if (error instanceof Error && PROGRESS_CALLS.has(call))
      return { error: { code: 0, code_name: "ProgressError", message: error.message } };
    throw error;
  }
}
