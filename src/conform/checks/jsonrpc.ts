/** The JSON-RPC rules: error codes, ids, notifications, what is not a request. */
import { RpcError } from "../../protocol/index.js";
import { describeExit, RpcTimeout, type Session, type Stray } from "../../host/index.js";
import { describeStray, errorCode, frames, show, straysSince } from "../context.js";
import { Rule } from "../rules.js";
import { fail, Findings, pass, warn, type Check, type Outcome } from "../types.js";
import { PING } from "./lifecycle.js";

/** How long to listen for frames that must not come (or come late), after a later request was answered. */
export const QUIET_MS = 300;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LineProbe {
  /** Answers to nothing the host waits for that came after the line. */
  strays: Stray[];
  /** Why the request sent after the line got no answer (the plugin died, or went silent). */
  stopped?: string;
}

/** Sends `line` (if any), then a ping; once the ping is answered (or not), listens a little longer. */
export async function probeLine(
  session: Session,
  waitMs: number,
  line?: string | Buffer,
  since = session.now(),
): Promise<LineProbe> {
  const mark = since;
  if (line !== undefined) session.sendRaw(line);
  let stopped: string | undefined;
  try {
    await session.request(PING, undefined, waitMs);
  } catch (error) {
    stopped = session.alive ? (error as Error).message : `the plugin exited (${describeExit(session.exit)})`;
  }
  await sleep(QUIET_MS);
  return { strays: straysSince(session, mark), ...(stopped && { stopped }) };
}

/** The verdict on what a line that is not a request got: id null and `code` is right; another code is advice; no id member, a wrong id or death is a failure; silence is advice. */
function judgeNonRequest(f: Findings, sent: string, probe: LineProbe, code: number, session: Session): void {
  if (probe.stopped && !session.alive) {
    f.fail(
      `sent ${sent}: ${probe.stopped}; a line the plugin cannot handle must not end it${frames(session, 4)}`,
      Rule.keepReading,
    );
    return;
  }
  const bad = probe.strays.find((s) => s.kind !== "null-id");
  if (bad) f.fail(`sent ${sent}: answered ${describeStray(bad)}`, Rule.responseId);
  const nulls = probe.strays.filter((s) => s.kind === "null-id");
  if (nulls.length === 0 && !bad) {
    if (probe.stopped)
      f.fail(
        `sent ${sent}: after it the plugin stopped answering (${probe.stopped})${frames(session, 4)}`,
        Rule.keepReading,
      );
    else f.warn(`sent ${sent}: no answer (JSON-RPC 2.0 answers it ${code} with id null)`, Rule.errorCodes);
    return;
  }
  const wrong = nulls.find((s) => errorCode(s.frame) !== code);
  if (wrong)
    f.warn(
      `sent ${sent}: answered ${show(wrong.frame.error ?? wrong.frame, 160)} with id null, expected code ${code}`,
      Rule.errorCodes,
    );
}

export const unknownMethodCheck: Check = {
  id: "jsonrpc.unknown-method",
  description: "an unknown method is answered -32601 with the request's id",
  rule: "SPEC JSON-RPC errors: -32601 Method not found",
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.readySession();
    let r;
    try {
      r = await session.request("executa.conformance/no-such-method", { x: 1 }, ctx.waits.healthMs);
    } catch (error) {
      if (!(error instanceof RpcTimeout) && session.alive) throw error;
      const stray = session.strays.find((s) => s.kind === "no-id");
      if (stray)
        return fail(`the unknown method was answered ${describeStray(stray)}${frames(session, 4)}`, Rule.responseId);
      return fail(
        `${(error as Error).message}: a request must be answered, an unknown method with -32601${frames(session, 4)}`,
        session.alive ? Rule.reply : Rule.keepReading,
      );
    }
    if (errorCode(r.frame) !== RpcError.MethodNotFound)
      return warn(
        `expected error -32601, got ${show(r.frame.error ?? { result: r.frame.result })}${frames(session, 4)}`,
        Rule.errorCodes,
      );
    return pass();
  },
};

export const parseErrorCheck: Check = {
  id: "jsonrpc.parse-error",
  description: "a line that is not JSON is answered -32700 with id null, and the plugin keeps running",
  rule: "JSON-RPC 2.0 §5.1: -32700 Parse error, with id null; SPEC Transport 6: keep reading",
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.readySession();
    const f = new Findings();
    judgeNonRequest(
      f,
      "a truncated JSON line",
      await probeLine(session, ctx.waits.healthMs, '{"jsonrpc": "2.0", "id": 7, "method": "describe"'),
      RpcError.ParseError,
      session,
    );
    return f.outcome();
  },
};

const BATCH_ID = "executa-batch-1";

export const invalidRequestCheck: Check = {
  id: "jsonrpc.invalid-request",
  description:
    "JSON that is not a request object (a number, a string) is answered -32600 with id null; a batch gets -32600 or an answer per element",
  rule: "JSON-RPC 2.0 §5.1: -32600 Invalid Request, with id null; batches: " + Rule.batches,
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.readySession();
    const f = new Findings();
    // A batch: -32600 with id null, or the element answered with its own id; both are right.
    const mark = session.now();
    const element = session.callRaw(
      `[{"jsonrpc": "2.0", "id": "${BATCH_ID}", "method": "describe"}]`,
      BATCH_ID,
      "batch",
    );
    element.catch(() => undefined);
    const batch = await probeLine(session, ctx.waits.healthMs, undefined, mark);
    const perElement = await Promise.race([
      element.then(
        () => true,
        () => false,
      ),
      sleep(0).then(() => false),
    ]);
    if (!perElement)
      judgeNonRequest(
        f,
        "a batch of one describe",
        { ...batch, strays: batch.strays.filter((s) => s.frame.id !== BATCH_ID) },
        RpcError.InvalidRequest,
        session,
      );
    if (session.alive) {
      for (const line of ["42", '"describe"'])
        judgeNonRequest(f, line, await probeLine(session, ctx.waits.healthMs, line), RpcError.InvalidRequest, session);
    }
    return f.outcome(perElement ? "the batch was answered per element" : undefined);
  },
};

export const idZeroCheck: Check = {
  id: "jsonrpc.id-zero",
  description: "a request with id 0 is answered, with id 0",
  rule: "JSON-RPC 2.0: 0 is a valid id; compare ids with != null, never by truthiness",
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.readySession();
    try {
      await session.request(PING, undefined, ctx.waits.healthMs, 0);
    } catch (error) {
      const stray = session.strays[0];
      const rule = stray ? Rule.responseId : session.alive ? Rule.reply : Rule.keepReading;
      return fail(
        `the request with id 0 got no answer with id 0: ${(error as Error).message}${stray ? ` (it answered ${describeStray(stray)})` : ""}${frames(session, 4)}`,
        rule,
      );
    }
    return pass();
  },
};

export const notificationCheck: Check = {
  id: "jsonrpc.notification",
  description: "a frame without an id (a notification) gets no reply, whatever its method",
  rule: Rule.noNotificationReply,
  needs: ["alive"],
  async run(ctx): Promise<Outcome> {
    const session = await ctx.readySession();
    const mark = session.now();
    session.send({ jsonrpc: "2.0", method: "health" });
    session.send({ jsonrpc: "2.0", method: "executa.conformance/notify", params: {} });
    session.send({
      jsonrpc: "2.0",
      method: "invoke",
      params: { tool: "executa_conformance_no_such_tool", arguments: {} },
    });
    const probe = await probeLine(session, ctx.waits.healthMs, undefined, mark);
    if (probe.strays.length > 0)
      return fail(
        `replied to the notifications (${probe.strays.length} answer(s)), e.g. ${describeStray(probe.strays[0]!)}${frames(session)}`,
        Rule.noNotificationReply,
      );
    if (probe.stopped)
      return fail(
        `no answer to the request after the notifications: ${probe.stopped}${frames(session)}`,
        session.alive ? Rule.reply : Rule.keepReading,
      );
    return pass();
  },
};
