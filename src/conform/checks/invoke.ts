/** invoke: unknown tools, bad arguments, the InvokeResult envelope, credentials from the context. */
import { PROTOCOL_V2, RpcError, type ToolDefinition } from "../../protocol/index.js";
import type { Response, Session } from "../../host/index.js";
import { brokenCalls, validArguments } from "../args.js";
import { errorCode, frames, show, type CheckContext } from "../context.js";
import { fail, pass, skip, type Check } from "../types.js";

const ANSWER_MS = 10_000;
const ENVELOPE_KEYS = new Set(["success", "data", "error", "duration_ms"]);

export const unknownToolCheck: Check = {
  id: "invoke.unknown-tool",
  description: "invoke of a tool the manifest does not list is answered -32601",
  rule: "SPEC JSON-RPC errors: -32601 Method / tool not found",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    const r = await session.invoke("executa_conformance_no_such_tool", {}, { timeoutMs: ANSWER_MS });
    if (errorCode(r.frame) !== RpcError.MethodNotFound) return fail(`expected error -32601, got ${show(r.frame)}${frames(session, 4)}`);
    return pass();
  },
};

export const invalidArgumentsCheck: Check = {
  id: "invoke.invalid-arguments",
  description: "invoke with a required argument missing, or an argument of the wrong type, is answered -32602",
  rule: "SPEC JSON-RPC errors: -32602 Invalid params; use the error frame for programmer errors such as a missing argument",
  needs: ["alive", "tools"],
  async run(ctx) {
    const calls = brokenCalls(ctx.tools);
    if (calls.length === 0) return skip("no tool has parameters");
    const session = ctx.session();
    const problems: string[] = [];
    for (const call of calls) {
      const tool = ctx.tools.find((t) => t.name === call.tool)!;
      const r = await session.invoke(call.tool, call.arguments, { timeoutMs: Math.min(ctx.toolTimeoutMs(tool), ANSWER_MS), credentials: ctx.credentials() });
      if (errorCode(r.frame) !== RpcError.InvalidParams) problems.push(`${call.tool} with ${call.what}: expected error -32602, got ${show(r.frame.error ?? r.frame.result, 200)}`);
    }
    if (problems.length) return fail(`${problems.join("\n  ")}${frames(session, 6)}`);
    return pass(`${calls.length} calls`);
  },
};

/** The problem with an invoke answer's envelope, or undefined; `notes` collects what is allowed but odd. */
export function envelopeProblem(r: Response, notes: string[], tool: string): string | undefined {
  const frame = r.frame;
  if ("error" in frame) {
    const code = errorCode(frame);
    if (code === RpcError.InvalidParams) return `rejected arguments the manifest allows (-32602): ${show(frame.error)}`;
    return `answered an error instead of an InvokeResult: ${show(frame.error)}`;
  }
  const result = frame.result;
  if (!result || typeof result !== "object" || Array.isArray(result)) return `the result is not an InvokeResult object: ${show(result)}`;
  const env = result as Record<string, unknown>;
  if (typeof env.success !== "boolean") return `the result has no boolean "success" (the Agent defaults it to false, so every call looks failed): ${show(env)}`;
  if (env.success) {
    const data = env.data;
    if (data && typeof data === "object" && !Array.isArray(data) && (data as Record<string, unknown>).error != null) {
      return `"success": true with data.error ${show((data as Record<string, unknown>).error, 120)}: an expected failure must be {"success": false, "error": "..."} so the Agent and the LLM see it failed`;
    }
  } else if (typeof env.error !== "string") {
    return `"success": false without a string "error": ${show(env)}`;
  }
  if ("duration_ms" in env && typeof env.duration_ms !== "number") return `duration_ms is not a number: ${show(env.duration_ms)}`;
  const extra = Object.keys(env).filter((k) => !ENVELOPE_KEYS.has(k));
  if (extra.length) notes.push(`${tool}: extra key(s) ${extra.join(", ")} (the Agent reads only success, data, error, duration_ms)`);
  return undefined;
}

async function v2Session(ctx: CheckContext): Promise<Session> {
  const session = ctx.session();
  await session.initialize(PROTOCOL_V2).catch(() => undefined);
  return session;
}

export const envelopeCheck: Check = {
  id: "invoke.envelope",
  description: "every tool, invoked with valid generated arguments, returns the {success, data} InvokeResult envelope",
  rule: "SPEC invoke: result {success, data, error, duration_ms}; success:false + error for expected failures",
  needs: ["alive", "tools"],
  async run(ctx) {
    const session = await v2Session(ctx);
    const problems: string[] = [];
    const notes: string[] = [];
    for (const tool of ctx.tools) {
      const args = validArguments(tool);
      let r: Response;
      try {
        r = await session.invoke(tool.name, args, { timeoutMs: ctx.toolTimeoutMs(tool), credentials: ctx.credentials() });
      } catch (error) {
        problems.push(`${tool.name} ${show(args, 120)}: ${(error as Error).message}`);
        if (!session.alive) break;
        continue;
      }
      const problem = envelopeProblem(r, notes, tool.name);
      if (problem) problems.push(`${tool.name} ${show(args, 120)}: ${problem}`);
      else if ((r.frame.result as { success?: boolean }).success === false) notes.push(`${tool.name}: success false (${show((r.frame.result as { error?: unknown }).error, 100)})`);
    }
    if (problems.length) return fail(`${problems.join("\n  ")}${frames(session, 6)}`);
    return pass(notes.length ? notes.join("; ") : `${ctx.tools.length} tool(s)`);
  },
};

const resultOf = (r: Response) => {
  const { duration_ms: _drop, ...rest } = (r.frame.result ?? {}) as Record<string, unknown>;
  return JSON.stringify([rest, r.frame.error ?? null]);
};

/** Invokes `tool` and returns its answer without duration, or undefined when it failed to answer. */
async function answerOf(session: Session, ctx: CheckContext, tool: ToolDefinition, credentials?: Record<string, string>): Promise<string | undefined> {
  try {
    return resultOf(await session.invoke(tool.name, validArguments(tool), { timeoutMs: ctx.toolTimeoutMs(tool), ...(credentials && { credentials }) }));
  } catch {
    return undefined;
  }
}

export const credentialsCheck: Check = {
  id: "invoke.credentials",
  description: "a credential the manifest declares is read from the invoke's context.credentials",
  rule: "SPEC invoke: params.context.credentials is injected by the Agent; the environment is only a local fallback",
  needs: ["alive", "tools"],
  async run(ctx) {
    const names = (ctx.manifest?.credentials ?? []).map((c) => c?.name).filter((n): n is string => typeof n === "string");
    if (names.length === 0) return skip("the manifest declares no credentials");
    const env: NodeJS.ProcessEnv = {};
    for (const n of names) env[n] = undefined;
    const session = ctx.session({ env });
    await session.initialize(PROTOCOL_V2).catch(() => undefined);
    const a = Object.fromEntries(names.map((n) => [n, `conformance-a-${n}`]));
    const b = Object.fromEntries(names.map((n) => [n, `conformance-b-${n}`]));
    for (const tool of ctx.tools) {
      const withA = await answerOf(session, ctx, tool, a);
      const withB = await answerOf(session, ctx, tool, b);
      if (withA === undefined || withB === undefined) continue;
      if (withA !== withB && (await answerOf(session, ctx, tool, a)) === withA) return pass(`${tool.name}'s answer depends on context.credentials`);
    }
    // Nothing changed with the context: does the plugin read the environment instead?
    const envA = ctx.session({ env: a });
    const envB = ctx.session({ env: b });
    await Promise.all([envA.initialize(PROTOCOL_V2).catch(() => undefined), envB.initialize(PROTOCOL_V2).catch(() => undefined)]);
    for (const tool of ctx.tools) {
      const [fromA, fromB] = await Promise.all([answerOf(envA, ctx, tool), answerOf(envB, ctx, tool)]);
      if (fromA !== undefined && fromB !== undefined && fromA !== fromB) {
        return fail(`${tool.name} reads ${names.join(", ")} from the environment but ignores context.credentials (changing the context changed nothing, changing the environment did); the Agent passes credentials only in params.context.credentials${frames(session, 4)}`);
      }
    }
    return skip(`no tool's answer depends on ${names.join(", ")}, so where it is read from cannot be observed`);
  },
};
