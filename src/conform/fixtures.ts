/** `--fixtures`: each transcript file becomes a check that replays it on a fresh session. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import {
  matches,
  readFixture,
  type Exchange,
  type RecordedReverse,
  type Response,
  type ReverseExchange,
  type Session,
} from "../host/index.js";
import { PROTOCOL_V2 } from "../protocol/index.js";
import { frames, show } from "./context.js";
import { fail, pass, type Check } from "./types.js";

function fixtureFiles(path: string): string[] {
  if (!existsSync(path))
    throw new ExecutaError(`no fixtures at ${path}`, {
      hint: "record one with executa dev --record fixtures/session.jsonl",
    });
  if (statSync(path).isFile()) return [path];
  const files = readdirSync(path)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => join(path, f));
  if (files.length === 0)
    throw new ExecutaError(`${path} holds no .jsonl fixtures`, {
      hint: "record one with executa dev --record fixtures/session.jsonl",
    });
  return files;
}

async function send(session: Session, x: Exchange, given: Record<string, string> | undefined): Promise<Response> {
  const params = await session.mockHost.fromTranscript(x.params);
  if (x.method === "invoke" && params && typeof params.tool === "string") {
    const context = (params.context ?? {}) as { credentials?: Record<string, string> };
    // An export holds `[credential NAME]` where a value was: the given credentials fill those in.
    const credentials = context.credentials || given ? { ...context.credentials, ...given } : undefined;
    return session.invoke(params.tool, params.arguments ?? {}, {
      timeoutMs: 60_000,
      ...(credentials && { credentials }),
    });
  }
  if (x.method === "initialize")
    return session.initialize(
      String((params as { protocolVersion?: unknown } | undefined)?.protocolVersion ?? PROTOCOL_V2),
    );
  // As the host learns of it: the manifest's host capabilities and tool id.
  if (x.method === "describe" && params === undefined) return session.describe(10_000);
  return session.request(x.method, params, 10_000);
}

/** Whether the answer matches the recording; an invoke's duration is never compared, and an app's result may be the envelope or its data. */
function answerMatches(x: Exchange, answer: Record<string, unknown>): boolean {
  if (x.expect === undefined) return true;
  let expect = x.expect;
  const result = (expect as { result?: unknown }).result;
  if (
    x.method === "invoke" &&
    result &&
    typeof result === "object" &&
    !Array.isArray(result) &&
    "duration_ms" in result
  ) {
    const { duration_ms: _ignored, ...rest } = result as Record<string, unknown>;
    expect = { result: rest };
  }
  if (matches(expect, answer)) return true;
  const data = (answer.result as { data?: unknown } | undefined)?.data;
  return x.app === true && data !== undefined && matches(expect, { result: data });
}

export interface Replayed {
  /** `{result}` or `{error}`; undefined for a notification (nothing to answer). */
  answer?: Record<string, unknown>;
  matched: boolean;
  /** Where the plugin's reverse requests differ from the recorded ones, when they do. */
  reverseDiffers?: string;
}

/** A reverse request's params without what names the invoke (its context, the legacy metadata.executa_invoke_id), which differs every run. */
function withoutContext(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const { context: _ignored, ...rest } = params ?? {};
  const metadata = rest.metadata;
  if (metadata && typeof metadata === "object" && !Array.isArray(metadata) && "executa_invoke_id" in metadata) {
    const { executa_invoke_id: _id, ...kept } = metadata as Record<string, unknown>;
    if (Object.keys(kept).length) rest.metadata = kept;
    else delete rest.metadata;
  }
  return rest;
}

/** Whether the replayed invoke made the recorded reverse requests, in order, with params that match (the invoke's context aside). */
function reverseDifference(
  recorded: RecordedReverse[] | undefined,
  made: ReverseExchange[] | undefined,
): string | undefined {
  if (!recorded) return undefined;
  const got = made ?? [];
  for (let i = 0; i < Math.max(recorded.length, got.length); i++) {
    const want = recorded[i];
    const r = got[i];
    if (!want)
      return `a reverse request the recording does not have: ${r!.method} ${show(withoutContext(r!.params), 200)}`;
    if (!r) return `line ${want.line}: the recorded reverse request ${want.method} was not made`;
    if (r.method !== want.method || !matches(withoutContext(want.params), withoutContext(r.params))) {
      return `line ${want.line}: expected the reverse request ${want.method} ${show(withoutContext(want.params), 200)}\n    got ${r.method} ${show(withoutContext(r.params), 200)}`;
    }
  }
  return undefined;
}

/** Sends one recorded exchange on the session and compares the answer with the recording. */
export async function replayExchange(
  session: Session,
  x: Exchange,
  credentials?: Record<string, string>,
): Promise<Replayed> {
  if (x.expect === "none") {
    session.send({ jsonrpc: "2.0", method: x.method, ...(x.params && { params: x.params }) });
    return { matched: true };
  }
  const r = await send(session, x, credentials);
  // Compared as a transcript writes them: the mock host's URLs with the recording's base.
  const answer = session.mockHost.toTranscript(
    "error" in r.frame ? { error: r.frame.error } : { result: r.frame.result },
  );
  const reverseDiffers = reverseDifference(
    x.reverse,
    r.reverse?.map((made) => ({ ...made, params: session.mockHost.toTranscript(made.params) })),
  );
  return { answer, matched: answerMatches(x, answer) && !reverseDiffers, ...(reverseDiffers && { reverseDiffers }) };
}

/** `credentials` (from `executa test --credential`) go into every replayed invoke, over what the recording holds. */
export function fixtureChecks(path: string, credentials?: Record<string, string>): Check[] {
  return fixtureFiles(path).map((file) => {
    const { exchanges, notReplayed } = readFixture(file);
    const skipped = notReplayed.length
      ? `; not replayed (app-level, not about a plugin): ${notReplayed.join(", ")}`
      : "";
    return {
      id: `fixtures/${basename(file, ".jsonl")}`,
      description: `replays ${basename(file)} (${exchanges.length} exchanges) and compares each answer with the recording`,
      rule: "the recorded transcript: each request's answer matches what was recorded",
      needs: ["alive"],
      async run(ctx) {
        // Each recorded session (an `executa dev --record` run) on a fresh plugin and mock host, as it was recorded.
        let session = ctx.session();
        let recorded = exchanges[0]?.session;
        for (const x of exchanges) {
          if (x.session !== recorded) {
            recorded = x.session;
            await session.terminate();
            session = ctx.session();
          }
          const { answer, matched, reverseDiffers } = await replayExchange(session, x, credentials);
          if (reverseDiffers)
            return fail(`${basename(file)} line ${x.line} (${x.method}): ${reverseDiffers}${frames(session, 4)}`);
          if (!matched) {
            return fail(
              `${basename(file)} line ${x.line} (${x.method}): expected ${show(x.expect, 400)}\n    got ${show(answer, 400)}${frames(session, 4)}`,
            );
          }
        }
        return pass(`${exchanges.length} exchanges${skipped}`);
      },
    } satisfies Check;
  });
}
