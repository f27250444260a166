/** initialize on v2 and v1 offers, and the invoke_id echo of reverse requests. */
import { clientCapabilitiesFor, InvokeContextError, PROTOCOL_V1, PROTOCOL_V2, RpcError } from "../../protocol/index.js";
import { RpcTimeout, TIMED_OUT, within, type Response, type ReverseRecord, type Session } from "../../host/index.js";
import { validArguments } from "../args.js";
import { describeStray, errorCode, frames, show } from "../context.js";
import { Rule } from "../rules.js";
import { fail, pass, skip, warn, type Check, type Outcome } from "../types.js";

async function initializeAnswer(session: Session, version: string, waitMs: number): Promise<Response | Outcome> {
  try {
    return await session.initialize(version, waitMs);
  } catch (error) {
    if (!(error instanceof RpcTimeout) && session.alive) throw error;
    const stray = session.strays[0];
    if (stray) return fail(`initialize was answered ${describeStray(stray)}`, Rule.responseId);
    return fail(
      `${(error as Error).message}: initialize must be answered (-32601 from a v1 plugin)${frames(session, 4)}`,
      session.alive ? Rule.reply : Rule.keepReading,
    );
  }
}

const isOutcome = (v: Response | Outcome): v is Outcome => "status" in v;

export const initializeV2Check: Check = {
  id: "initialize.v2",
  description:
    'initialize offering "2.0" is answered "2.0" with client_capabilities for the manifest\'s host_capabilities (or -32601 from a v1 plugin)',
  rule: "SPEC Protocol v2: the host falls back to v1 when initialize is method-not-found; reverse RPCs need v2 and host_capabilities",
  needs: ["alive", "manifest"],
  async run(ctx) {
    const session = ctx.session();
    const r = await initializeAnswer(session, PROTOCOL_V2, ctx.waits.describeMs);
    if (isOutcome(r)) return r;
    const declared = Array.isArray(ctx.manifest?.host_capabilities) ? ctx.manifest!.host_capabilities! : [];
    if ("error" in r.frame) {
      if (errorCode(r.frame) !== RpcError.MethodNotFound)
        return warn(
          `initialize answered an error other than -32601: ${show(r.frame.error)}; the host cannot tell whether this is a v1 plugin${frames(session, 4)}`,
          Rule.errorCodes,
        );
      if (declared.length)
        return warn(
          `the manifest declares host_capabilities ${declared.join(", ")} but initialize is method-not-found, so protocol 2.0 and every reverse request are out of reach${frames(session, 4)}`,
          Rule.capabilityMatrix,
        );
      return pass("a v1 plugin: initialize is method-not-found and the host falls back to v1");
    }
    const result = r.frame.result as Record<string, unknown> | undefined;
    if (!result || typeof result.protocolVersion !== "string")
      return warn(
        `the initialize result has no protocolVersion: ${show(r.frame)}${frames(session, 4)}`,
        Rule.versionNegotiation,
      );
    if (!session.negotiatedV2) {
      if (declared.length)
        return warn(
          `answered protocolVersion ${show(result.protocolVersion)} to a "2.0" offer although the manifest declares host_capabilities ${declared.join(", ")}${frames(session, 4)}`,
          Rule.capabilityMatrix,
        );
      return pass(`answered ${show(result.protocolVersion)}: a v1 plugin`);
    }
    const expected = clientCapabilitiesFor(declared);
    const given = { ...(result.capabilities as object), ...(result.client_capabilities as object) } as Record<
      string,
      unknown
    >;
    const missing = Object.keys(expected).filter((k) => !(k in given));
    if (missing.length)
      return warn(
        `client_capabilities lacks ${missing.join(", ")} although the manifest declares host_capabilities ${declared.join(", ")}: ${show(result)}`,
        Rule.capabilityMatrix,
      );
    return pass();
  },
};

export const initializeV1Check: Check = {
  id: "initialize.v1",
  description: 'initialize offering "1.1" is answered "1.1" (or -32601), never "2.0"',
  rule: Rule.versionNegotiation,
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    const r = await initializeAnswer(session, PROTOCOL_V1, ctx.waits.describeMs);
    if (isOutcome(r)) return r;
    if ("error" in r.frame) {
      return errorCode(r.frame) === RpcError.MethodNotFound
        ? pass("a v1 plugin: initialize is method-not-found")
        : warn(`initialize answered ${show(r.frame.error)}${frames(session, 4)}`, Rule.errorCodes);
    }
    const version = (r.frame.result as Record<string, unknown> | undefined)?.protocolVersion;
    if (typeof version !== "string" || !version.startsWith("1."))
      return warn(
        `answered protocolVersion ${show(version)} to a host that offered only "1.1"${frames(session, 4)}`,
        Rule.versionNegotiation,
      );
    return pass();
  },
};

function describeRecord(r: ReverseRecord): string {
  return `${r.method} with context.invoke_id ${r.invokeId === undefined ? "missing" : show(r.invokeId)}${r.legacyInvokeId !== undefined ? ` (metadata.executa_invoke_id ${show(r.legacyInvokeId)})` : ""} while ${r.active.length} invoke(s) were active${r.error ? ` -> ${r.error.code} ${(r.error.data as { errorCode?: string } | undefined)?.errorCode ?? r.error.message}` : ""}`;
}

export const invokeIdCheck: Check = {
  id: "reverse.invoke-id",
  description: "reverse requests carry their invoke's context.invoke_id when two invokes run at once",
  rule: Rule.invokeIdEcho,
  needs: ["alive", "tools"],
  async run(ctx) {
    const session = await ctx.invokingSession();
    if (!session.negotiatedV2)
      return skip("the plugin does not negotiate protocol 2.0, so it makes no reverse requests");
    // Which tools make reverse requests? One invoke at a time (the omitted-id fallback is legal here).
    let reverseTool: (typeof ctx.tools)[number] | undefined;
    for (const tool of ctx.eachTool()) {
      const before = session.mockHost.log.length;
      await session
        .invoke(tool.name, validArguments(tool), { timeoutMs: ctx.toolTimeoutMs(tool), credentials: ctx.credentials() })
        .catch(() => undefined);
      const made = session.mockHost.log.slice(before);
      const wrong = made.find(
        (r) =>
          (r.error?.data as { errorCode?: string } | undefined)?.errorCode ===
          InvokeContextError.UNKNOWN_INVOKE_CONTEXT,
      );
      if (wrong) return fail(`${tool.name}: ${describeRecord(wrong)}${frames(session, 6)}`, Rule.invokeIdEcho);
      if (made.length > 0) {
        reverseTool = tool;
        break;
      }
    }
    if (!reverseTool) return skip("no tool made a reverse request when invoked with valid arguments");
    const tool = reverseTool;
    const before = session.mockHost.log.length;
    const first = session.callInvoke(tool.name, validArguments(tool), {
      credentials: ctx.credentials(),
      timeoutMs: ctx.toolTimeoutMs(tool),
    });
    const second = session.callInvoke(tool.name, validArguments(tool), {
      credentials: ctx.credentials(),
      timeoutMs: ctx.toolTimeoutMs(tool),
    });
    const both = await within(Promise.allSettled([first.promise, second.promise]), ctx.toolTimeoutMs(tool));
    if (both === TIMED_OUT)
      return fail(
        `two concurrent invokes of ${tool.name} were not both answered within ${ctx.toolTimeoutMs(tool) / 1000} s${frames(session, 8)}`,
        Rule.reply,
      );
    const made = session.mockHost.log.slice(before);
    // Only the routing codes: a storage conflict between the two invokes is the plugin's business.
    const routing: readonly unknown[] = Object.values(InvokeContextError);
    const bad = made.find((r) => routing.includes((r.error?.data as { errorCode?: unknown } | undefined)?.errorCode));
    if (bad)
      return fail(
        `under two concurrent invokes of ${tool.name}: ${describeRecord(bad)}${frames(session, 8)}`,
        Rule.invokeIdEcho,
      );
    const ids = new Set(made.map((r) => r.invokeId));
    const lost = [first.invokeId, second.invokeId].filter((id) => !ids.has(id));
    if (made.length >= 2 && lost.length)
      return fail(
        `under two concurrent invokes of ${tool.name}, no reverse request carried invoke_id ${lost.join(", ")}: each was attributed to the wrong invoke (${made.map(describeRecord).join("; ")})`,
        Rule.invokeIdEcho,
      );
    return pass(`${tool.name}: ${made.length} reverse request(s), each with its invoke's id`);
  },
};
