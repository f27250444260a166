/** invoke.credentials: a declared credential is read from the invoke's context, deterministically observed. */
import type { Response, Session } from "../../host/index.js";
import type { ToolDefinition } from "../../protocol/index.js";
import { validArguments } from "../args.js";
import { frames, show, type CheckContext } from "../context.js";
import { Rule } from "../rules.js";
import { Findings, skip, type Check } from "../types.js";
import { answerOf, isLost } from "./invoke.js";

/** An answer without its timing, comparable across calls. */
function comparable(r: Response): string {
  const { duration_ms: _drop, ...rest } = (r.frame.result ?? {}) as Record<string, unknown>;
  return JSON.stringify([rest, r.frame.error ?? null]);
}

async function answer(
  session: Session,
  ctx: CheckContext,
  tool: ToolDefinition,
  credentials?: Record<string, string>,
): Promise<Response | undefined> {
  const r = await answerOf(session, tool.name, validArguments(tool), {
    timeoutMs: ctx.toolTimeoutMs(tool),
    ...(credentials && { credentials }),
  });
  return isLost(r) ? undefined : r;
}

/** Whether the tool's answer changes between two values of every credential, and only then (the first value asked twice). */
async function dependsOn(ask: (variant: 0 | 1) => Promise<Response | undefined>): Promise<boolean> {
  const a = await ask(0);
  const b = await ask(1);
  if (!a || !b || comparable(a) === comparable(b)) return false;
  const again = await ask(0);
  return again !== undefined && comparable(again) === comparable(a);
}

export const credentialsCheck: Check = {
  id: "invoke.credentials",
  description:
    "a credential the manifest declares is read from the invoke's context.credentials; without it the tool says it failed",
  rule: Rule.credentials,
  needs: ["alive", "tools"],
  async run(ctx) {
    const names = ctx.credentialNames;
    if (names.length === 0) return skip("the manifest declares no credentials");
    const cleared: NodeJS.ProcessEnv = Object.fromEntries(names.map((n) => [n, undefined]));
    const session = await ctx.invokingSession({ env: cleared });
    const dependent: ToolDefinition[] = [];
    for (const tool of ctx.eachTool()) {
      if (await dependsOn((v) => answer(session, ctx, tool, ctx.credentials(v)))) dependent.push(tool);
    }
    if (dependent.length > 0) {
      const f = new Findings();
      for (const tool of dependent) {
        const r = await answerOf(session, tool.name, validArguments(tool), { timeoutMs: ctx.toolTimeoutMs(tool) });
        if (isLost(r)) f.fail(`${tool.name} without ${names.join(", ")} in the context: ${r.lost}`, r.rule);
        else if ((r.frame.result as { success?: unknown } | undefined)?.success === true) {
          f.warn(
            `${tool.name} without ${names.join(", ")} answers "success": true (${show(r.frame.result, 160)}); a missing credential is an expected failure: {"success": false, "error": "... not configured ..."}`,
            Rule.errorFrameTip,
          );
        }
      }
      return f.outcome(
        `${dependent.map((t) => t.name).join(", ")} read ${names.join(", ")} from context.credentials`,
        f.failed ? frames(session, 4) : "",
      );
    }
    // Nothing changed with the context: does the plugin read the environment instead?
    const [envA, envB] = await Promise.all([
      ctx.invokingSession({ env: ctx.credentials(0) }),
      ctx.invokingSession({ env: ctx.credentials(1) }),
    ]);
    for (const tool of ctx.eachTool()) {
      if (await dependsOn((v) => answer(v === 0 ? envA : envB, ctx, tool))) {
        const f = new Findings();
        f.warn(
          `${tool.name} reads ${names.join(", ")} from the environment but ignores context.credentials (changing the context changed nothing, changing the environment did); the Agent passes credentials only in params.context.credentials`,
          Rule.credentials,
        );
        return f.outcome();
      }
    }
    return skip(`no tool's answer depends on ${names.join(", ")}, so where it is read from cannot be observed`);
  },
};
