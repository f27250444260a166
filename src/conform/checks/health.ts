import { HEALTH_STATUSES, RpcError, Timeouts } from "../../protocol/index.js";
import { RpcTimeout } from "../../host/index.js";
import { errorCode, frames, show } from "../context.js";
import { fail, pass, type Check } from "../types.js";

export const healthCheck: Check = {
  id: "health",
  description: `health (if present) answers within ${Timeouts.healthMs / 1000} s with status ${HEALTH_STATUSES.join(" / ")}`,
  rule: "SPEC health: status must be one of ready, error, initializing; method-not-found is treated as healthy; 3 s, not configurable",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    let r;
    try {
      r = await session.health(Timeouts.healthMs);
    } catch (error) {
      if (error instanceof RpcTimeout) return fail(`no answer to health within ${Timeouts.healthMs / 1000} s${frames(session, 4)}`);
      throw error;
    }
    if ("error" in r.frame) {
      return errorCode(r.frame) === RpcError.MethodNotFound ? pass("no health method (the Agent treats that as healthy)") : fail(`health answered an error: ${show(r.frame.error)}`);
    }
    const status = (r.frame.result as { status?: unknown } | undefined)?.status;
    if (!(HEALTH_STATUSES as readonly unknown[]).includes(status)) {
      return fail(`health status is ${show(status)}; it must be one of ${HEALTH_STATUSES.map((s) => `"${s}"`).join(", ")}${frames(session, 2)}`);
    }
    return pass(`${status} in ${r.ms} ms`);
  },
};
