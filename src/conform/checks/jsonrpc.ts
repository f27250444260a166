/** The JSON-RPC rules: error codes, ids, notifications, what is not a request. */
import { RpcError, Timeouts } from "../../protocol/index.js";
import { TIMED_OUT, within, type Session } from "../../host/index.js";
import { errorCode, frames, show } from "../context.js";
import { fail, pass, type Check } from "../types.js";
import { PING } from "./lifecycle.js";

const ANSWER_MS = Timeouts.healthMs;
/** How long to listen for frames that must not come, after a later request was answered. */
export const QUIET_MS = 300;

async function stillAnswers(session: Session): Promise<string | undefined> {
  try {
    await session.request(PING, undefined, ANSWER_MS);
    return undefined;
  } catch (error) {
    return `${(error as Error).message}`;
  }
}

/** Sends a raw line and waits for the next `id: null` answer. */
async function nullAnswer(session: Session, line: string | Buffer): Promise<Record<string, unknown> | string> {
  const next = session.nextNullIdResponse();
  next.catch(() => undefined);
  session.sendRaw(line);
  try {
    const r = await within(next, ANSWER_MS);
    return r === TIMED_OUT ? `no answer with id null within ${ANSWER_MS / 1000} s` : r;
  } catch (error) {
    return (error as Error).message;
  }
}

export const unknownMethodCheck: Check = {
  id: "jsonrpc.unknown-method",
  description: "an unknown method is answered -32601 with the request's id",
  rule: "SPEC JSON-RPC errors: -32601 Method not found",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    const r = await session.request("executa.conformance/no-such-method", { x: 1 }, ANSWER_MS);
    if (errorCode(r.frame) !== RpcError.MethodNotFound) return fail(`expected error -32601, got ${show(r.frame)}${frames(session, 4)}`);
    return pass();
  },
};

export const parseErrorCheck: Check = {
  id: "jsonrpc.parse-error",
  description: "a line that is not JSON is answered -32700 with id null, and the plugin keeps running",
  rule: "SPEC JSON-RPC errors: -32700 Parse error; JSON-RPC 2.0: id null when it cannot be read",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    const answer = await nullAnswer(session, '{"jsonrpc": "2.0", "id": 7, "method": "describe"');
    if (typeof answer === "string") return fail(`sent a truncated JSON line: ${answer}${frames(session)}`);
    if (errorCode(answer) !== RpcError.ParseError) return fail(`expected error -32700 with id null, got ${show(answer)}${frames(session, 4)}`);
    const broken = await stillAnswers(session);
    if (broken) return fail(`after the parse error the plugin stopped answering: ${broken}${frames(session)}`);
    return pass();
  },
};

export const invalidRequestCheck: Check = {
  id: "jsonrpc.invalid-request",
  description: "JSON that is not a request object (a batch, a number, a string) is answered -32600 with id null",
  rule: "SPEC Transport constraint 1: each line is one JSON object, so batches are not requests; JSON-RPC 2.0: -32600 Invalid Request, id null",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    for (const line of ['[{"jsonrpc": "2.0", "id": 1, "method": "describe"}]', "42", '"describe"']) {
      const answer = await nullAnswer(session, line);
      if (typeof answer === "string") return fail(`sent ${line}: ${answer}${frames(session)}`);
      if (errorCode(answer) !== RpcError.InvalidRequest) return fail(`sent ${line}: expected error -32600 with id null, got ${show(answer)}${frames(session, 4)}`);
    }
    const r = await session.request(PING, undefined, ANSWER_MS).catch((e: Error) => e);
    if (r instanceof Error) return fail(`stopped answering after the invalid requests: ${r.message}${frames(session)}`);
    return pass();
  },
};

export const idZeroCheck: Check = {
  id: "jsonrpc.id-zero",
  description: "a request with id 0 is answered, with id 0",
  rule: "JSON-RPC 2.0: 0 is a valid id; compare ids with != null, never by truthiness",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    try {
      await session.request(PING, undefined, ANSWER_MS, 0);
    } catch (error) {
      const nulls = session.nullIdResponses.length ? ` (it answered with id null: ${show(session.nullIdResponses[0])})` : "";
      return fail(`the request with id 0 got no answer with id 0: ${(error as Error).message}${nulls}${frames(session, 4)}`);
    }
    return pass();
  },
};

export const notificationCheck: Check = {
  id: "jsonrpc.notification",
  description: "a frame without an id (a notification) gets no reply, whatever its method",
  rule: "JSON-RPC 2.0: the server MUST NOT reply to a notification",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    session.send({ jsonrpc: "2.0", method: "health" });
    session.send({ jsonrpc: "2.0", method: "executa.conformance/notify", params: {} });
    session.send({ jsonrpc: "2.0", method: "invoke", params: { tool: "executa_conformance_no_such_tool", arguments: {} } });
    try {
      await session.request(PING, undefined, ANSWER_MS);
    } catch (error) {
      return fail(`no answer to the request after the notifications: ${(error as Error).message}${frames(session)}`);
    }
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const replies = [...session.nullIdResponses, ...session.unmatched];
    if (replies.length > 0) return fail(`replied to ${replies.length} notification(s): ${show(replies[0])}${frames(session)}`);
    return pass();
  },
};
