import { HEALTH_STATUSES, RpcError, Timeouts } from "../../protocol/index.js";
import { RpcTimeout } from "../../host/index.js";
import { errorCode, frames, show } from "../context.js";
import { Rule } from "../rules.js";
import { fail, pass, warn, type Check } from "../types.js";

export const healthCheck: Check = {
  id: "health",
  description: `health (if present) answers within ${Timeouts.healthMs / 1000} s with status ${HEALTH_STATUSES.join(" / ")}`,
  rule: `${Rule.healthStatus} Method-not-found is treated as healthy. ${Rule.healthTimeout}`,
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.readySession();
    let r;
    try {
      r = await session.health(ctx.waits.healthMs);
    } catch (error) {
      if (!(error instanceof RpcTimeout) && session.alive) throw error;
      return fail(
        `no answer to health within ${Timeouts.healthMs / 1000} s${frames(session, 4)}`,
        session.alive ? `${Rule.reply} ${Rule.healthTimeout}` : Rule.keepReading,
      );
    }
    if ("error" in r.frame) {
      if (errorCode(r.frame) === RpcError.MethodNotFound)
        return pass("no health method (the Agent treats that as healthy)");
      return warn(
        `health answered an error, ${show(r.frame.error)}: omit the method (-32601 counts as healthy) or answer a status`,
        Rule.healthStatus,
      );
    }
    const status = (r.frame.result as { status?: unknown } | undefined)?.status;
    if (!(HEALTH_STATUSES as readonly unknown[]).includes(status)) {
      return fail(
        `health status is ${show(status)}; it must be one of ${HEALTH_STATUSES.map((s) => `"${s}"`).join(", ")}${frames(session, 2)}`,
        Rule.healthStatus,
      );
    }
    return pass(`${status} in ${r.ms} ms`);
  },
};
