/** invoke: unknown tools, bad arguments, the InvokeResult envelope. */
import { RpcError } from "../../protocol/index.js";
import { RpcTimeout, type Response, type Session } from "../../host/index.js";
import { brokenCalls, validArguments } from "../args.js";
import { describeStray, errorCode, frames, show, straysSince, type CheckContext } from "../context.js";
import { missingModuleLine } from "../missing-module.js";
import { Rule } from "../rules.js";
import { fail, Findings, pass, skip, warn, type Check } from "../types.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the plugin wrote on stderr after `before` (its last 64 KiB, which slide). */
function stderrSince(session: Session, before: string): string {
  const now = session.stderr;
  return now.startsWith(before) ? now.slice(before.length) : now;
}

const ENVELOPE_KEYS = new Set(["success", "data", "error", "duration_ms"]);

/** An invoke's answer, or why there was none that the host can use (already phrased). */
export async function answerOf(
  session: Session,
  tool: string,
  args: unknown,
  options: { timeoutMs: number; credentials?: Record<string, string> },
): Promise<Response | { lost: string; rule: string }> {
  const mark = session.now();
  try {
    const r = await session.invoke(tool, args, options);
    if (r.file?.error)
      return {
        lost: `the answer was a file-transport pointer the host could not accept (${r.file.error})`,
        rule: Rule.fileTransport,
      };
    return r;
  } catch (error) {
    if (!(error instanceof RpcTimeout) && session.alive) throw error;
    const stray = straysSince(session, mark).find((s) => s.kind === "no-id");
    if (stray) return { lost: `answered ${describeStray(stray)}`, rule: Rule.responseId };
    if (!session.alive) return { lost: `no answer: ${(error as Error).message}`, rule: Rule.keepReading };
    return { lost: `no answer within ${options.timeoutMs / 1000} s`, rule: Rule.reply };
  }
}

export const isLost = (r: Response | { lost: string }): r is { lost: string; rule: string } => "lost" in r;

export const unknownToolCheck: Check = {
  id: "invoke.unknown-tool",
  description: "invoke of a tool the manifest does not list is answered -32601",
  rule: Rule.errorCodes,
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.invokingSession();
    const r = await answerOf(session, "executa_conformance_no_such_tool", {}, { timeoutMs: ctx.waits.answerMs });
    if (isLost(r)) return fail(`invoke of an unknown tool: ${r.lost}${frames(session, 4)}`, r.rule);
    if (errorCode(r.frame) !== RpcError.MethodNotFound)
      return warn(
        `expected error -32601, got ${show(r.frame.error ?? { result: r.frame.result })}${frames(session, 4)}`,
        `${Rule.errorCodes} ${Rule.errorFrameTip}`,
      );
    return pass();
  },
};

export const invalidArgumentsCheck: Check = {
  id: "invoke.invalid-arguments",
  description:
    "invoke without a required argument is answered -32602; one with a wrong-typed or an undeclared argument gets an answer",
  rule: `${Rule.errorCodes} ${Rule.errorFrameTip} ${Rule.reply}`,
  needs: ["alive", "tools"],
  async run(ctx) {
    if (ctx.tools.length === 0) return skip("no tool to call");
    const session = await ctx.invokingSession();
    const f = new Findings();
    let calls = 0;
    tools: for (const tool of ctx.eachTool()) {
      for (const call of brokenCalls(tool)) {
        calls++;
        const r = await answerOf(session, call.tool, call.arguments, {
          timeoutMs: Math.min(ctx.toolTimeoutMs(tool), ctx.waits.answerMs),
          credentials: ctx.credentials(),
        });
        if (isLost(r)) {
          f.fail(`${call.tool} with ${call.what}: ${r.lost}`, r.rule);
          if (!session.alive) break tools;
        } else if (call.expect === "invalid-params" && errorCode(r.frame) !== RpcError.InvalidParams) {
          f.warn(
            `${call.tool} with ${call.what}: expected error -32602, got ${show(r.frame.error ?? r.frame.result, 200)}`,
            Rule.errorFrameTip,
          );
        }
      }
    }
    return f.outcome(`${calls} calls`, f.failed ? frames(session, 6) : "");
  },
};

/** An error frame that says the tool does not exist: -32601, or a message naming an unknown tool (the official multi-file example answers -32603 "unknown tool: "). */
function answersUnknownTool(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === RpcError.MethodNotFound || (typeof message === "string" && /\bunknown tool\b/i.test(message));
}

/** What is wrong with an invoke answer's envelope; `notes` collects what is allowed but odd. */
function judgeEnvelope(f: Findings, r: Response, notes: string[], label: string): void {
  const frame = r.frame;
  if ("error" in frame) {
    if (answersUnknownTool(frame.error))
      return f.fail(
        `${label}: a declared tool was answered as unknown: ${show(frame.error)}; no host can call it (read the tool from params.tool)`,
        Rule.declaredTool,
      );
    if (errorCode(frame) === RpcError.InvalidParams)
      f.warn(`${label}: rejected arguments the manifest allows (-32602): ${show(frame.error)}`, Rule.errorFrameTip);
    else
      f.warn(
        `${label}: answered an error frame instead of an InvokeResult: ${show(frame.error)} (an expected failure is {"success": false, "error": "..."})`,
        Rule.errorFrameTip,
      );
    return;
  }
  const result = frame.result;
  if (!result || typeof result !== "object" || Array.isArray(result))
    return f.fail(`${label}: the result is not an InvokeResult object: ${show(result)}`, Rule.invokeResult);
  const env = result as Record<string, unknown>;
  if (typeof env.success !== "boolean")
    return f.fail(
      `${label}: the result has no boolean "success" (the Agent defaults it to false, so every call looks failed): ${show(env)}`,
      Rule.invokeResult,
    );
  if (env.success) {
    const data = env.data;
    if (data && typeof data === "object" && !Array.isArray(data) && (data as Record<string, unknown>).error != null) {
      f.warn(
        `${label}: "success": true with data.error ${show((data as Record<string, unknown>).error, 120)}: an expected failure is {"success": false, "error": "..."}, so the Agent and the LLM see that it failed`,
        Rule.errorFrameTip,
      );
    }
  } else {
    if (typeof env.error !== "string")
      f.warn(`${label}: "success": false without a string "error": ${show(env)}`, Rule.invokeResult);
    notes.push(`${label}: success false (${show(env.error, 100)})`);
  }
  if ("duration_ms" in env && typeof env.duration_ms !== "number")
    f.warn(`${label}: duration_ms is not a number: ${show(env.duration_ms)}`, Rule.invokeResult);
  const extra = Object.keys(env).filter((k) => !ENVELOPE_KEYS.has(k));
  if (extra.length)
    notes.push(`${label}: extra key(s) ${extra.join(", ")} (the Agent reads only success, data, error, duration_ms)`);
}

export const envelopeCheck: Check = {
  id: "invoke.envelope",
  description:
    'every tool, invoked with valid generated arguments, loads every module it imports and returns the {success, data} InvokeResult envelope (never "unknown tool")',
  rule: Rule.invokeResult,
  needs: ["alive", "tools"],
  async run(ctx: CheckContext) {
    const session = await ctx.invokingSession();
    const f = new Findings();
    const notes: string[] = [];
    for (const tool of ctx.eachTool()) {
      const args = validArguments(tool);
      const label = `${tool.name} ${show(args, 120)}`;
      const stderrBefore = session.stderr;
      const r = await answerOf(session, tool.name, args, {
        timeoutMs: ctx.toolTimeoutMs(tool),
        credentials: ctx.credentials(),
      });
      const answered = isLost(r) ? undefined : r.frame;
      const ok =
        answered && !("error" in answered) && (answered.result as { success?: unknown } | undefined)?.success === true;
      if (!ok) {
        if (session.alive) await sleep(100); // the traceback on stderr may trail the answer on stdout
        const missing = missingModuleLine(`${show(answered ?? "", 2000)}\n${stderrSince(session, stderrBefore)}`);
        if (missing) {
          f.fail(
            `${tool.name} cannot load a module it imports: ${missing} (install the dependency where the plugin runs: the project's environment, and for a build the one it packs)`,
            Rule.modulesResolve,
          );
          if (!session.alive) break;
          continue;
        }
      }
      if (isLost(r)) {
        f.fail(`${label}: ${r.lost}`, r.rule);
        if (!session.alive) break;
        continue;
      }
      judgeEnvelope(f, r, notes, label);
    }
    return f.outcome(
      notes.length ? notes.join("; ") : `${ctx.tools.length} tool(s)`,
      f.failed ? frames(session, 6) : "",
    );
  },
};
